// The options of `pushctl send`, checked by one schema: the message flags, the settings flags, the delivery
// flags (the one place their values are bounded) and send's own. `pushctl dry-run` and the GitHub Action
// build their send options through this same schema, so their bounds are the CLI's.
import * as z from 'zod/mini';
import { optionalFlag, optionalText } from '../shared/option-kinds.js';
import { deliveryOptionsSchema } from '../shared/delivery-options.js';
import { messageOptionsSchema } from '../shared/message-options.js';
import { settingsOptionsSchema } from '../shared/settings-options.js';

export const sendOptionsSchema = z.object({
  ...messageOptionsSchema.shape,
  ...settingsOptionsSchema.shape,
  ...deliveryOptionsSchema.shape,
  /** false with `--no-validate`: send the body as assembled. */
  validate: optionalFlag,
  /** `--once <key>`: send this message to this audience once; a re-run finds the earlier run (docs/behaviour.md#once). */
  once: optionalText,
  /** Not a flag of send: true for `pushctl dry-run` (and the action's mode dry-run), "dry_run": true in the body. */
  dryRun: optionalFlag,
});

export type SendOptions = z.infer<typeof sendOptionsSchema>;
