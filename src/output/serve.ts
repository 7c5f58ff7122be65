// How `pushctl serve` ends: one line counting what the emulator accepted (its log went to stderr as it ran).
import type { TextSink } from '../context.js';
import type { ExitCode } from '../errors.js';

export interface ServeOutcome {
  exitCode: ExitCode;
  /** The messages the emulator accepted while it ran. */
  accepted: number;
}

export function printServe(outcome: ServeOutcome, _options: unknown, ctx: { stderr: TextSink }): void {
  const { accepted } = outcome;
  ctx.stderr.write(`emulator stopped (${accepted} message${accepted === 1 ? '' : 's'} accepted)\n`);
}
