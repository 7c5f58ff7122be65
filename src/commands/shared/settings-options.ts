// The settings flags of every command that reaches the service (docs/behaviour.md#settings), as one schema
// that each such command's options extend. Values are checked where they are resolved (settings/), which
// names the flag, the environment variable or the config file a bad one came from.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { optionalFlag, optionalText } from './option-kinds.js';

const text = optionalText;

export const settingsOptionsSchema = z.object({
  appId: text,
  appSecretFile: text,
  appSecretStdin: optionalFlag,
  region: text,
  baseUrl: text,
  profile: text,
  config: text,
  insecure: optionalFlag,
  proxy: text,
  timeout: text,
  verbose: optionalFlag,
});
