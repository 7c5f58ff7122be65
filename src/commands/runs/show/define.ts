// The argument and flags of `pushctl runs show` and its help.
import type { CommandDefinition } from '../../shared/command.js';
import { examples } from '../../shared/flags.js';

export const runsShowCommand: CommandDefinition = {
  name: 'show',
  description: "print one run's outcome, message_ids and resend command",
  define: (cmd) =>
    cmd
      .argument('<run>', 'a run id (from `pushctl runs`) or the path of a journal file')
      .option('--json', 'print one JSON document')
      .option('--report <path>', 'write the report of the run (the format --report writes)')
      .option('--force', 'let --report replace an existing file that is not a report of this run')
      .addHelpText('after', examples(['pushctl runs show 20261122-231502-4f1c', 'pushctl runs show run.jsonl --report report.json --json'])),
  load: async () => (await import('./run.js')).command,
};
