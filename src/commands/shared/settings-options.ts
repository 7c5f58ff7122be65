// The settings flags of every command that reaches the service (docs/behaviour.md#settings), as one schema
// that each such command's options extend. Values are checked where they are resolved (settings/), which
// names the flag, the environment variable or the config file a bad one came from.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';

const text = z.optional(z.string());

export const settingsOptionsSchema = z.object({
  appId: text,
  appSecretFile: text,
  appSecretStdin: z.optional(z.boolean()),
  region: text,
  baseUrl: text,
  profile: text,
  config: text,
  insecure: z.optional(z.boolean()),
  proxy: text,
  timeout: text,
  verbose: z.optional(z.boolean()),
});
