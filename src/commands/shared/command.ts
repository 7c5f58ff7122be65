// The two halves of every command (STYLE.md, "The shape to move to"): what cli.ts defines at start-up (a
// name, a summary, commander flags) and what it loads only when the command runs (an options schema, a run
// function and a printer). Types only: nothing here loads zod or a command's code.
import type { Command } from 'commander';
import type { Ctx } from '../../context.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { Style } from '../../output/style.js';

/** What a command runs with: the outside world, the secrets filter, the command line as typed and the program. */
export interface CommandCtx extends Ctx {
  scrubber: SecretScrubber;
  /** The command line as typed, for a journal's header (docs/behaviour.md#journal). */
  argv: readonly string[];
  /** The program the command belongs to: `completion` describes it. Absent outside the CLI (the action). */
  program?: Command;
  /** The colours of diagnostics; by default chosen for stderr (the action and the MCP tools use none). */
  style?: Style;
}

/** What every command's run comes to: at least its exit code (docs/behaviour.md#exit-codes), which only main.ts turns into the process's. */
export interface Outcome {
  readonly exitCode: number;
}

/** A command as cli.ts runs it: the options commander parsed go in, an outcome comes out (see runnable.ts). */
export interface LoadedCommand {
  execute(given: Readonly<Record<string, unknown>>, ctx: CommandCtx): Promise<Outcome>;
}

/** A command as cli.ts defines it at start-up: its name, its summary, its flags; its code loads on demand. */
export interface CommandDefinition {
  name: string;
  description: string;
  /** The commander flags, arguments and help of the command (its subcommands too, `runs show`). */
  define(cmd: Command): Command;
  load(): Promise<LoadedCommand>;
  /** Its subcommands, each defined and run like a command. */
  subcommands?: readonly CommandDefinition[];
}
