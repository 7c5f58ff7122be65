// The options of `pushctl init`, checked by one schema. The region and the base URL are checked where init
// writes them (run.ts), with a did-you-mean; the secret where it is read (settings/read-secret.ts).
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { keptFile } from '../shared/check-options.js';

const text = z.optional(z.string());
const flag = z.optional(z.boolean());

export const initOptionsSchema = z.object({
  appId: text,
  region: text,
  baseUrl: text,
  /** Write the settings under `profiles.<name>` instead of the top level. */
  profile: text,
  /** `-c, --config <path>`: the file to write (default `.pushctlrc.json` in cwd). */
  config: z.optional(keptFile(z.string(), '--config', 'the config file', '.pushctlrc.json')),
  /** `--global`: write `config.json` in the user's config directory (e.g. ~/.config/pushctl/). */
  global: flag,
  appSecretFile: text,
  appSecretStdin: flag,
  /** Ask nothing: take the flags as they are. */
  yes: flag,
  /** Replace the settings already in the target section (top level, or the named profile). */
  force: flag,
  /** Print the outcome as one JSON document. */
  json: flag,
  /** `--audience name=id,id` (repeatable): named audiences of client IDs for `--to`. */
  audience: z.optional(z.array(z.string())),
  verbose: flag,
});

export type InitOptions = z.infer<typeof initOptionsSchema>;
