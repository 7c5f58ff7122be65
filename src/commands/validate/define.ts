// The flags of `pushctl validate` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addAudienceSourceOptions, addMessageOptions, addOutputOptions, addReportInputOption, examples } from '../shared/flags.js';

export const validateCommand: CommandDefinition = {
  name: 'validate',
  description: 'check a message locally and print what would be sent (no network, no credentials)',
  define: (cmd) =>
    addAudienceSourceOptions(addOutputOptions(addReportInputOption(addMessageOptions(cmd)), false)).addHelpText(
      'after',
      examples(['pushctl validate -f message.json', 'pushctl validate --title Hi --country uk          # fails: UK is not a code; use GB', 'cat msg.json | pushctl validate -f - --json']),
    ),
  load: async () => (await import('./run.js')).command,
};
