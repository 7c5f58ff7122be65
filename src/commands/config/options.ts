// The options of `pushctl config`: the settings flags, and --json.
import * as z from 'zod/mini';
import { settingsOptionsSchema } from '../shared/settings-options.js';

export const configOptionsSchema = z.extend(settingsOptionsSchema, {
  /** Print one JSON document instead of the human table. */
  json: z.optional(z.boolean()),
});

export type ConfigOptions = z.infer<typeof configOptionsSchema>;
