// The argument of `pushctl completion` and its help.
import { Argument, Option } from 'commander';
import type { CommandDefinition } from '../shared/command.js';
import { examples } from '../shared/flags.js';

/** The shells, for --help and for completing the argument; options.ts checks the value. */
// Optional to commander, which would refuse `completion --names` without it; run.ts asks for it otherwise.
const shell = new Argument('[shell]', 'bash, zsh or fish');
shell.argChoices = ['bash', 'zsh', 'fish'];
/** For the scripts alone, which ask on TAB for the names the config file holds: not in the help. */
const names = new Option('--names <kind>', 'list the audiences or profiles of the config file, one a line').hideHelp();

export const completionCommand: CommandDefinition = {
  name: 'completion',
  description: 'print a shell completion script',
  define: (cmd) =>
    cmd.addArgument(shell).addOption(names).addHelpText(
      'after',
      examples([
        'source <(pushctl completion bash)                                   # add to ~/.bashrc',
        'pushctl completion zsh > "${fpath[1]}/_pushctl"',
        'pushctl completion fish > ~/.config/fish/completions/pushctl.fish',
      ]),
    ),
  load: async () => (await import('./run.js')).command,
};
