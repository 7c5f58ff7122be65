// The command tree: every command's define module (src/commands/<name>/define.ts) is listed here; commander
// parses argv once, and the chosen command's code loads on demand (so `--help` never pays for zod, the
// client or the emulator), checks the options with its schema, runs and prints. Errors are not reported
// here: they go back to main.ts with what it needs to report them (--json, --verbose).
import { shellQuote } from './shell-quote.js';
import { Command, CommanderError, type Option } from 'commander';
import { extendCtx, type Ctx } from './context.js';
import { CliError, ExitCode, usageError } from './errors.js';
import { nearest } from './suggest.js';
import { commandSynonym, flagSynonym } from './synonyms.js';
import { examples } from './commands/shared/flags.js';
import { checkFlagValues, checkStrayArguments } from './cli-flag-values.js';
import { checkParentOptions, commandPath } from './cli-parent-options.js';
import type { SecretScrubber } from './output/redact.js';
import { VERSION } from './version.js';
import type { CommandDefinition, Outcome } from './commands/shared/command.js';
import { mcpCommand } from './commands/mcp/define.js';
import { schemaCommand } from './commands/schema/define.js';
import { completionCommand } from './commands/completion/define.js';
import { configCommand } from './commands/config/define.js';
import { validateCommand } from './commands/validate/define.js';
import { runsCommand } from './commands/runs/define.js';
import { checkCommand } from './commands/check/define.js';
import { initCommand } from './commands/init/define.js';
import { serveCommand } from './commands/serve/define.js';
import { resendCommand } from './commands/resend/define.js';
import { sendCommand } from './commands/send/define.js';
import { dryRunCommand } from './commands/dry-run/define.js';
import { argvWithAbsolutePaths } from './commands/shared/resend-command.js';

/** What runCli comes to: the command's outcome, or an error with what main.ts needs to report it. */
export type CliRun = { outcome: Outcome } | { error: unknown; json: boolean; verbose: boolean };

const COMMANDS: readonly CommandDefinition[] = [
  validateCommand,
  sendCommand,
  dryRunCommand,
  resendCommand,
  serveCommand,
  initCommand,
  configCommand,
  checkCommand,
  runsCommand,
  schemaCommand,
  mcpCommand,
  completionCommand,
];

/** The names of the program's commands, in the order `--help` lists them. */
export const commandNames = (): readonly string[] => COMMANDS.map((c) => c.name);

/** The program's commands as defined, subcommands within (for tests that check every command's shape). */
export const commandDefinitions = (): readonly CommandDefinition[] => COMMANDS;

/** How much of a command the program defines: every option, a name and a summary (for the top-level help), or nothing. */
type Definition = 'full' | 'summary' | 'none';

/**
 * How much of each command to define. Every option of every command, and even a bare commander Command for
 * each, costs milliseconds on each start, so a run of a known command defines that command alone. The
 * top-level help lists the rest by name and summary; unknown commands (for suggestions) and `completion`
 * (which describes the whole tree) get all.
 */
function commandsToDefine(argv: readonly string[]): (name: string) => Definition {
  const invoked = argv.find((a) => !a.startsWith('-'));
  const known = COMMANDS.some((c) => c.name === invoked);
  if (invoked === undefined || !known) return () => (!argv.includes('--help') && !argv.includes('-h') && invoked !== undefined ? 'full' : 'summary');
  if (invoked === 'completion') return () => 'full';
  return (name) => (name === invoked ? 'full' : 'none');
}

/**
 * `pushctl help <command> [<subcommand>]` as the argv commander gets: `<command> <subcommand> --help`. commander's
 * own help command takes one word, so `help runs show` printed the help of `runs`; and `help sned` printed the
 * whole help and exited 0, as if the command existed, so an unknown topic is a usage error with the nearest.
 */
function helpTopicArgv(argv: readonly string[]): readonly string[] {
  const [help, topic, sub] = argv;
  if (help !== 'help' || topic === undefined || topic.startsWith('-')) return argv;
  const definition = COMMANDS.find((c) => c.name === topic);
  if (definition === undefined) {
    const near = nearest(topic, COMMANDS.map((c) => c.name));
    throw usageError(`unknown command '${topic}'${near ? ` (did you mean '${near}'?)` : ''}`, `run pushctl ${near ? `help ${near}` : '--help'} to see ${near ? 'its options' : 'the commands'}`);
  }
  const subcommands = (definition.subcommands ?? []).map((c) => c.name);
  if (sub === undefined || sub.startsWith('-') || subcommands.length === 0) return [topic, '--help'];
  if (!subcommands.includes(sub)) {
    const near = nearest(sub, subcommands);
    throw usageError(`unknown command '${topic} ${sub}'${near ? ` (did you mean '${topic} ${near}'?)` : ''}`, `run pushctl help ${near ? `${topic} ${near}` : topic} to see ${near ? 'its options' : 'its commands'}`);
  }
  return [topic, sub, '--help'];
}

/** Unknown flags commander would refuse without the next step: the error that says it. */
function knownMistake(argv: readonly string[]): CliError | undefined {
  // `send --dry-run`: a dry run is a command of its own (docs/behaviour.md#commands), not a flag of send.
  if (argv.find((a) => !a.startsWith('-')) === 'send' && argv.some((a) => a === '--dry-run' || a === '--dryrun')) {
    const rest = argv.filter((a, i) => a !== '--dry-run' && a !== '--dryrun' && i !== argv.indexOf('send'));
    return usageError('send has no --dry-run: a dry run is a command of its own', ['pushctl', 'dry-run', ...rest].map(shellQuote).join(' '));
  }
  // The secret would sit in the shell history and in every other user's process list.
  if (argv.some((a) => a === '--app-secret' || a.startsWith('--app-secret='))) {
    return usageError(
      'the app secret is never a command-line flag (other users can read it in the process list, and it stays in your shell history)',
      'set PUSHCTL_APP_SECRET, or use --app-secret-file <path> or --app-secret-stdin',
    );
  }
  return undefined;
}

/**
 * The options a command's help lists under "Global Options": the program's visible ones, except those it
 * declares itself. A parent command's own flags are not listed: `runs --limit` does nothing for `runs show`,
 * which refuses it (cli-parent-options.ts).
 */
function inheritedOptions(cmd: Command): Option[] {
  const seen = new Set(cmd.options.flatMap((o) => [o.long, o.short]).filter((n) => n !== undefined));
  const inherited: Option[] = [];
  for (let ancestor = cmd.parent; ancestor; ancestor = ancestor.parent) {
    if (ancestor.parent) continue;
    for (const option of ancestor.options) {
      if (option.hidden || [option.long, option.short].some((n) => n !== undefined && seen.has(n))) continue;
      for (const name of [option.long, option.short]) if (name !== undefined) seen.add(name);
      inherited.push(option);
    }
  }
  return inherited;
}

/** commander's complaint as a usage error: its first line the message, its suggestion and the help command the hint. */
function usageErrorOf(error: CommanderError, argv: readonly string[], program: Command): CliError {
  const known = knownMistake(argv);
  if (known) return known;
  const [message = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const invoked = invokedCommand(argv, program);
  // What the words mean first (another tool's name, an own flag cut short, another command's flag), then
  // commander's nearest spelling.
  const suggestion = synonymOf(error, invoked) || wholeFlagOf(error, invoked) || otherCommandsWith(error, invoked) || rest.join(' ').replace(/^\((.*)\)$/, '$1').trim() || missingArgumentOf(error, invoked);
  const help = `pushctl ${invoked === program ? '' : `${commandPath(invoked)} `}--help`;
  return usageError(message, suggestion ? `${suggestion.replace(/^Did/, 'did')} Run ${help} for the options` : `run ${help} for the options`);
}

/** The (sub)command argv names, `runs show` for `runs show x`: its own help lists what it takes. */
function invokedCommand(argv: readonly string[], program: Command): Command {
  let command = program;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === word);
    if (sub === undefined) break;
    command = sub;
  }
  return command;
}

/** The flag or command an unknown one of another tool stands for (`--device` → `--client-id`, `push` → `send`): see synonyms.ts. */
function synonymOf(error: CommanderError, command: Command): string {
  if (error.code === 'commander.unknownCommand') {
    const typed = /'([^']+)'/.exec(error.message)?.[1];
    return typed === undefined ? '' : commandSynonym(typed, command.commands.map((c) => c.name()));
  }
  const typed = error.code === 'commander.unknownOption' ? /'(-{1,2}[^'=]+)/.exec(error.message)?.[1] : undefined;
  if (typed === undefined) return '';
  return flagSynonym(typed, [...command.options, ...inheritedOptions(command)].flatMap((o) => (o.long ? [o.long] : [])));
}

/**
 * `validate --rate 5`: a flag another command takes exactly, named with those commands. commander's nearest
 * spelling among the command's own flags (`--data`) was a wrong lead. Only on this error path are the other
 * commands' flags defined (commandsToDefine leaves them out of a normal run).
 */
function otherCommandsWith(error: CommanderError, invoked: Command): string {
  const flag = error.code === 'commander.unknownOption' ? /'(--[^'=]+)/.exec(error.message)?.[1] : undefined;
  if (flag === undefined || invoked.parent === null) return '';
  const names = COMMANDS.filter((d) => d.name !== commandPath(invoked) && d.define(new Command(d.name)).options.some((o) => o.long === flag)).map((d) => d.name);
  if (names.length === 0) return '';
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${flag} is a flag of pushctl ${listed}, not of ${commandPath(invoked)}.`;
}

/**
 * commander suggests a flag only within a few typos, so a flag cut short (`--lang`, `--client`), which many
 * tools accept, got no suggestion: the nearest of the command's flags that begin with it is offered.
 */
function wholeFlagOf(error: CommanderError, command: Command): string {
  const typed = error.code === 'commander.unknownOption' ? /'(--[^'=]+)/.exec(error.message)?.[1] : undefined;
  if (typed === undefined) return '';
  const longs = [...command.options, ...inheritedOptions(command)].filter((o) => !o.hidden).flatMap((o) => (o.long?.startsWith(typed) ? [o.long] : []));
  const near = nearest(typed, longs);
  return near ? `Did you mean ${near}?` : '';
}

/**
 * A missing argument said with what it is, and an example where it takes a few values: "give <shell>:
 * bash, zsh or fish, e.g. pushctl completion bash", where commander names it alone.
 */
function missingArgumentOf(error: CommanderError, command: Command): string {
  const name = error.code === 'commander.missingArgument' ? /'([^']+)'/.exec(error.message)?.[1] : undefined;
  const argument = command.registeredArguments.find((a) => a.name() === name);
  if (argument === undefined || argument.description === '') return '';
  const example = argument.argChoices?.[0] !== undefined ? `, e.g. pushctl ${commandPath(command)} ${argument.argChoices[0]}` : '';
  return `give <${argument.name()}>: ${argument.description}${example}.`;
}

/** The camelCase key of an argument's name, as commander names options (`<client-ids>` → clientIds). */
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Whether a flag was typed (not after `--`): for errors commander raises before it has parsed the options. */
function typed(argv: readonly string[], flag: string): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes(flag);
}

/** Defines a command (and its subcommands) on `parent`; its action runs it and keeps the outcome. */
function install(parent: Command, definition: CommandDefinition, how: Definition, ran: (definition: CommandDefinition, command: Command) => Promise<void>): void {
  if (how === 'none') return;
  const cmd = parent.command(definition.name).description(definition.description);
  if (how === 'summary') return;
  definition.define(cmd).action(async (...args: unknown[]) => {
    // commander passes the command last, after the arguments and the options.
    const command = args.at(-1);
    if (command instanceof Command) await ran(definition, command);
  });
  for (const sub of definition.subcommands ?? []) install(cmd, sub, 'full', ran);
}

/** The program: its own flags and help, and every command (those not run as a name and a summary only). */
function programOf(ctx: Ctx, argv: readonly string[], ran: (definition: CommandDefinition, command: Command) => Promise<void>): Command {
  const program = new Command('pushctl')
    .description('Send push messages through the Push Message Service, or run its local emulator.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // A program option, so every command takes it: the error hint "rerun with --verbose" must always work.
    .option('--verbose', 'more detail: each request and response (secret shown as ***), stack traces of errors')
    .configureHelp({ showGlobalOptions: true, visibleGlobalOptions: inheritedOptions })
    .showSuggestionAfterError(true)
    .exitOverride()
    // Stray words are checked in the preAction hook (checkStrayArguments), which names them and the fix.
    .allowExcessArguments(true)
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      // commander's errors leave through main.ts like every other error (one line, a hint, the envelope).
      outputError: () => {},
      // The help's width from our own sinks: commander's defaults read process.stdout, whose creation costs a
      // run that writes through src/stdio-sink.ts milliseconds. pushctl's help has no colours to keep.
      getOutHelpWidth: () => ctx.stdout.terminal?.columns ?? 80,
      getErrHelpWidth: () => ctx.stderr.terminal?.columns ?? 80,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText(
      'after',
      examples([
        'pushctl serve                      # a local emulator, no account needed',
        'pushctl send --all --title "Hello" --desc "First push"',
        'pushctl validate -f message.json',
        'pushctl send -f examples/release-announcement.json --var version=1.4.0 --var notes=Fixes --json',
      ]),
    );
  // Before any action: a value that looks like a flag is a usage error (see cli-flag-values.ts).
  program.hook('preAction', (_program, action) => {
    checkFlagValues(argv, action);
    checkStrayArguments(argv, action);
    checkParentOptions(action);
  });
  const define = commandsToDefine(argv);
  for (const definition of COMMANDS) install(program, definition, define(definition.name), ran);
  return program;
}

/** Parses argv once and runs the chosen command: its outcome, or the error with the mode to report it in. */
export async function runCli(typedArgv: readonly string[], ctx: Ctx, scrubber: SecretScrubber): Promise<CliRun> {
  let outcome: Outcome = { exitCode: ExitCode.ok };
  // Until the options are parsed, the mode is what was typed; after, what the command was given.
  let mode = { json: typed(typedArgv, '--json'), verbose: typed(typedArgv, '--verbose') };
  let argv: readonly string[];
  try {
    argv = helpTopicArgv(typedArgv);
  } catch (error) {
    return { error, ...mode };
  }
  const program: Command = programOf(ctx, argv, async (definition, command) => {
    const given = { ...command.optsWithGlobals(), ...Object.fromEntries(command.registeredArguments.map((a, i) => [camel(a.name()), command.processedArgs[i]])) };
    mode = { json: given.json === true, verbose: given.verbose === true };
    const loaded = await definition.load();
    // Kept in journals and printed in resend commands: its settings files named wherever the command ran.
    outcome = await loaded.execute(given, extendCtx(ctx, { scrubber, argv: argvWithAbsolutePaths(argv, ctx.cwd), program }));
  });
  if (argv.length === 0) {
    ctx.stderr.write(program.helpInformation());
    return { outcome: { exitCode: ExitCode.usage } };
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) return { error, ...mode };
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return { outcome: { exitCode: ExitCode.ok } };
    return { error: usageErrorOf(error, argv, program), ...mode };
  }
  return { outcome };
}
