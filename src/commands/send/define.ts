// The flags of `pushctl send` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addSendOptions, sendExamples } from '../shared/flags.js';

export const sendCommand: CommandDefinition = {
  name: 'send',
  description: 'validate and send a message; prints the message_id',
  define: (cmd) => addSendOptions(cmd).addHelpText('after', sendExamples('send')),
  load: async () => (await import('./run.js')).command,
};
