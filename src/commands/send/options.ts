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
}).check(
  // --once with where the journal goes: the key is found through the runs of the journal directory.
  z.superRefine((options, ctx) => {
    const { once, journal } = options;
    if (once === undefined) return;
    const refuse = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['once'], input: once });
    if (once.trim() === '') refuse('--once needs a key: e.g. --once release-1.4.0');
    else if (journal === false) refuse('--once needs the run journal, which is how a re-run finds the earlier run: drop --no-journal (PUSHCTL_JOURNAL_DIR chooses where journals go)');
    else if (typeof journal === 'string') {
      // A --journal file stands alone; the runs of a key are found in the journal directory.
      refuse('--once finds earlier runs in the journal directory, and --journal names one file outside it: drop --journal, and choose the directory with PUSHCTL_JOURNAL_DIR if needed');
    }
  }),
);

export type SendOptions = z.infer<typeof sendOptionsSchema>;
