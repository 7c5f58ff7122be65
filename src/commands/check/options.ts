// The options of `pushctl check`: the settings flags, and --json.
import * as z from 'zod/mini';
import { settingsOptionsSchema } from '../shared/settings-options.js';

export const checkOptionsSchema = z.extend(settingsOptionsSchema, {
  json: z.optional(z.boolean()),
});

export type CheckOptions = z.infer<typeof checkOptionsSchema>;
