// The flags of `pushctl init` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { collect, examples, regionOption } from '../shared/flags.js';

export const initCommand: CommandDefinition = {
  name: 'init',
  description: 'write a config file (asks on a terminal; use flags in scripts)',
  define: (cmd) =>
    cmd
      .option('--app-id <id>', 'application ID')
      .addOption(regionOption('service region'))
      .option('--base-url <url>', "service URL instead of a region (e.g. the emulator's)")
      .option('--profile <name>', 'write the settings under profiles.<name>')
      .option('-c, --config <path>', 'file to write (default .pushctlrc.json here)')
      .option('--global', 'write the user config file (~/.config/pushctl/config.json)')
      .option('--app-secret-file <path>', 'store the secret read from this file (file mode becomes 600)')
      .option('--app-secret-stdin', 'store the secret read from stdin (file mode becomes 600)')
      .option('-y, --yes', 'do not ask; use flags and defaults')
      .option('--force', 'replace settings already in the file')
      .option('--json', 'print what was written as JSON')
      .option('--audience <name=id,id>', 'add a named audience of client IDs, for --to <name> (repeatable)', collect)
      .addHelpText('after', examples(['pushctl init', 'pushctl init --audience my-phones=3f9a0c12,77c1e0b4', 'pushctl init --app-id my-app --region india --yes', 'pushctl init --profile staging --app-id my-app-staging --yes'])),
  load: async () => (await import('./run.js')).command,
};
