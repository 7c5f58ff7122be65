// The settings flags of every command that reaches the service (docs/behaviour.md#settings), as one schema
// that each such command's options extend. Values are checked where they are resolved (settings/), which
// names the flag, the environment variable or the config file a bad one came from.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { optionalFlag, optionalText } from './option-kinds.js';
import { pathOnly } from './check-options.js';

const text = optionalText;

/** `-c, --config <path>`: a file's path; stdin is never read for settings. */
export const configPathOption = z.optional(pathOnly(z.string(), '--config', 'the config file', '.pushctlrc.json'));

export const settingsOptionsSchema = z.object({
  appId: text,
  appSecretFile: z.optional(pathOnly(z.string(), '--app-secret-file', 'the app secret', 'secret.txt', 'pipe it to --app-secret-stdin')),
  appSecretStdin: optionalFlag,
  region: text,
  baseUrl: text,
  profile: text,
  config: configPathOption,
  insecure: optionalFlag,
  proxy: text,
  timeout: text,
  verbose: optionalFlag,
});
