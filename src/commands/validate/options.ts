// The options of `pushctl validate`: the message flags, the output flags, and where `--to` finds its audience.
import * as z from 'zod/mini';
import { messageOptionsSchema } from '../shared/message-options.js';

export const validateOptionsSchema = z.extend(messageOptionsSchema, {
  json: z.optional(z.boolean()),
  quiet: z.optional(z.boolean()),
  /** The config file (`--config`) and profile (`--profile`) whose audiences `--to` may name. */
  config: z.optional(z.string()),
  profile: z.optional(z.string()),
  verbose: z.optional(z.boolean()),
});

export type ValidateOptions = z.infer<typeof validateOptionsSchema>;
