// The flags of `pushctl runs` and its help; `runs show` is a command of its own (runs/show/).
import type { CommandDefinition } from '../shared/command.js';
import { examples } from '../shared/flags.js';
import { runsShowCommand } from './show/define.js';

export const runsCommand: CommandDefinition = {
  name: 'runs',
  description: 'list recent runs from their journals; `runs show <id|path>` prints one run and its resend command',
  define: (cmd) =>
    cmd
      .option('--json', 'print one JSON document')
      .option('-n, --limit <n>', 'how many runs to list (default 20)')
      .addHelpText('after', examples(['pushctl runs', 'pushctl runs show 20261122-231502-4f1c', 'pushctl runs show ./run.jsonl --report report.json', 'pushctl runs --json'])),
  load: async () => (await import('./run.js')).command,
  subcommands: [runsShowCommand],
};
