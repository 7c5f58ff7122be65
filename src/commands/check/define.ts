// The flags of `pushctl check` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { addSettingsOptions, examples } from '../shared/flags.js';

export const checkCommand: CommandDefinition = {
  name: 'check',
  description: 'show where each setting came from, then prove the app ID and secret with a dry run (no one reached)',
  define: (cmd) => addSettingsOptions(cmd.option('--json', 'print one JSON document')).addHelpText('after', examples(['pushctl check', 'pushctl check --profile staging', 'pushctl check --json'])),
  load: async () => (await import('./run.js')).command,
};
