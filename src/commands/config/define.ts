// The flags of `pushctl config` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addSettingsOptions, examples } from '../shared/flags.js';

export const configCommand: CommandDefinition = {
  name: 'config',
  description: 'show the resolved settings and where each came from (the secret only as set/unset)',
  define: (cmd) => addSettingsOptions(cmd.option('--json', 'print one JSON document')).addHelpText('after', examples(['pushctl config', 'pushctl config --profile staging --json'])),
  load: async () => (await import('./run.js')).command,
};
