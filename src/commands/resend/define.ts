// The argument and flags of `pushctl resend` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addDeliveryOptions, addOutputOptions, addSettingsOptions, examples } from '../shared/flags.js';

export const resendCommand: CommandDefinition = {
  name: 'resend',
  description: "send a run's remaining recipients with the journal's own message (not sent only; --include-in-doubt adds those in doubt)",
  define: (cmd) =>
    addDeliveryOptions(addSettingsOptions(addOutputOptions(cmd, true)), false)
      .argument('<run>', 'a run id (from `pushctl runs`) or the path of a journal file')
      .option('--dry-run', 'show what would be sent, send nothing')
      .option('--client-ids-file <path>', 'the client-ID file again, for a run stopped before it read all of it ("-" = stdin)')
      .addHelpText('after', examples(['pushctl resend 20261122-231502-4f1c', 'pushctl resend 20261122-231502-4f1c --include-in-doubt', 'pushctl resend ./run.jsonl --dry-run --json', 'pushctl resend 20261122-231502-4f1c --client-ids-file ids.txt   # a run stopped by a bad line'])),
  load: async () => (await import('./run.js')).command,
};
