import type { Command, Option } from 'commander';
import type { Ctx } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { SHELLS, completionScript, type CompletionCommand, type CompletionOption, type CompletionTree, type Shell } from '../output/completion.js';

export interface CompletionCommandOptions {
  shell: string;
  /** The program whose commands and options are completed. */
  program: Command;
}

function describeOption(o: Option): CompletionOption {
  const valueName = /[<[]([^>\]]+?)(\.\.\.)?[>\]]/.exec(o.flags)?.[1];
  return {
    flags: o.flags,
    ...(o.long ? { long: o.long } : {}),
    ...(o.short ? { short: o.short } : {}),
    description: o.description,
    takesValue: o.required || o.optional,
    ...(valueName ? { valueName } : {}),
    ...(o.argChoices ? { choices: o.argChoices } : {}),
  };
}

/** What the shells need to know about the program: its visible commands and options, as `--help` shows them. */
export function describeProgram(program: Command): CompletionTree {
  const help = program.createHelp();
  const commands = help.visibleCommands(program);
  const names = commands.map((c) => c.name()).filter((n) => n !== 'help');
  return { name: program.name(), options: help.visibleOptions(program).map(describeOption), commands: commands.map((c) => describeCommand(c, names)) };
}

/** One command as `--help` shows it, with its own subcommands (`runs show`). */
function describeCommand(c: Command, topNames: readonly string[]): CompletionCommand {
  const help = c.createHelp();
  const subcommands = help.visibleCommands(c).filter((s) => s.name() !== 'help');
  return {
    name: c.name(),
    description: c.description(),
    // As `--help` shows them: the command's own options, then the program's (--verbose, --version).
    options: [...help.visibleOptions(c), ...help.visibleGlobalOptions(c)].map(describeOption),
    // `help <command>` completes command names; other arguments complete their declared choices.
    arguments: c.registeredArguments.map((a) => {
      const choices = c.name() === 'help' ? topNames : a.argChoices;
      return { name: a.name(), ...(choices ? { choices } : {}) };
    }),
    ...(subcommands.length > 0 ? { commands: subcommands.map((s) => describeCommand(s, topNames)) } : {}),
  };
}

/** Prints the completion script for a shell, generated from the command tree. */
export async function completionCommand(options: CompletionCommandOptions, ctx: Pick<Ctx, 'stdout'>): Promise<number> {
  if (!(SHELLS as readonly string[]).includes(options.shell)) {
    throw usageError(`no completion for ${JSON.stringify(options.shell)}`, `choose one of ${SHELLS.join(', ')}`);
  }
  ctx.stdout.write(completionScript(options.shell as Shell, describeProgram(options.program)));
  return ExitCode.ok;
}
