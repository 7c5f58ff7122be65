// `pushctl completion <shell>`: a completion script generated from the program being run, so every command
// and flag is completed without anyone keeping a list.
import type { Command, Option } from 'commander';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { completionScript, printCompletion, type CompletionCommand, type CompletionOption, type CompletionOutcome, type CompletionTree, type NameKind } from '../../output/completion.js';
import type { CommandCtx } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { completionOptionsSchema, type CompletionOptions } from './options.js';

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
    ...(o.long !== undefined && Object.hasOwn(NAMED, o.long) ? { names: NAMED[o.long] } : {}),
  };
}

/** The options whose values the config file names, completed with those names (docs/behaviour.md#completion). */
const NAMED: Record<string, NameKind> = { '--to': 'audiences', '--profile': 'profiles' };

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

/** The completion script for a shell, generated from the command tree; or, for the scripts, the names asked for. */
export async function completion(options: CompletionOptions, ctx: Pick<CommandCtx, 'program' | 'cwd' | 'env'>): Promise<CompletionOutcome> {
  if (options.names !== undefined) {
    const { configNames } = await import('./config-names.js');
    return { exitCode: ExitCode.ok, script: (await configNames(options.names, ctx)).map((name) => `${name}\n`).join('') };
  }
  if (options.shell === undefined) {
    throw usageError("missing required argument 'shell'", 'give <shell>: bash, zsh or fish, e.g. pushctl completion bash. Run pushctl completion --help for the options');
  }
  if (!ctx.program) throw new CliError('completion describes the CLI program, and none was given', ExitCode.internal);
  return { exitCode: ExitCode.ok, script: completionScript(options.shell, describeProgram(ctx.program)) };
}

export const command = runnable(completionOptionsSchema, completion, printCompletion);
