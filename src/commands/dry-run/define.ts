// The flags of `pushctl dry-run` (send's) and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addSendOptions, sendExamples } from '../shared/flags.js';

export const dryRunCommand: CommandDefinition = {
  name: 'dry-run',
  description: 'have the service check a message without delivering it ("dry_run": true)',
  define: (cmd) => addSendOptions(cmd).addHelpText('after', sendExamples('dry-run')),
  load: async () => (await import('./run.js')).command,
};
