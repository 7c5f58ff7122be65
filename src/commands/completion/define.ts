// The argument of `pushctl completion` and its help.
import { Argument } from 'commander';
import type { CommandDefinition } from '../shared/command.js';
import { examples } from '../shared/flags.js';

/** The shells, for --help and for completing the argument; options.ts checks the value. */
const shell = new Argument('<shell>', 'bash, zsh or fish');
shell.argChoices = ['bash', 'zsh', 'fish'];

export const completionCommand: CommandDefinition = {
  name: 'completion',
  description: 'print a shell completion script',
  define: (cmd) =>
    cmd.addArgument(shell).addHelpText(
      'after',
      examples([
        'source <(pushctl completion bash)                                   # add to ~/.bashrc',
        'pushctl completion zsh > "${fpath[1]}/_pushctl"',
        'pushctl completion fish > ~/.config/fish/completions/pushctl.fish',
      ]),
    ),
  load: async () => (await import('./run.js')).command,
};
