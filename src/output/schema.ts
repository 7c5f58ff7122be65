// How `pushctl schema` reads: the schema on stdout, or one line saying which file it went to.
import type { TextSink } from '../context.js';
import type { ExitCode } from '../errors.js';

export interface SchemaOutcome {
  exitCode: ExitCode;
  text: string;
  /** The file the schema was written to; absent when it goes to stdout. */
  written?: string;
}

export function printSchema(outcome: SchemaOutcome, _options: unknown, ctx: { stdout: TextSink; stderr: TextSink }): void {
  if (outcome.written === undefined) ctx.stdout.write(outcome.text);
  else ctx.stderr.write(`wrote ${outcome.written}\n`);
}
