// The options of `pushctl validate`: the message flags, the output flags, and where `--to` finds its audience.
import * as z from 'zod/mini';
import { optionalFlag, optionalText } from '../shared/option-kinds.js';
import { messageOptionsSchema } from '../shared/message-options.js';
import { configPathOption } from '../shared/settings-options.js';

export const validateOptionsSchema = z.extend(messageOptionsSchema, {
  json: optionalFlag,
  quiet: optionalFlag,
  /** With a report or run journal as --client-ids-file: take its in-doubt recipients too. */
  includeInDoubt: optionalFlag,
  /** The config file (`--config`) and profile (`--profile`) whose audiences `--to` may name. */
  config: configPathOption,
  profile: optionalText,
  verbose: optionalFlag,
});

export type ValidateOptions = z.infer<typeof validateOptionsSchema>;
