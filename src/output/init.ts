// How `pushctl init` reads: one line saying what was written where, then the warnings; or one JSON envelope.
import type { TextSink } from '../context.js';
import { envelopeText, snakeKeys } from './envelope.js';
import type { ExitCode } from '../errors.js';

/** What `init` wrote (src/commands/init/run.ts). */
export interface InitOutcome {
  exitCode: ExitCode;
  path: string;
  /** True when the file did not exist before. */
  created: boolean;
  profile: string | null;
  /** The keys written, as paths: "appId", "profiles.ci.region". */
  keys: string[];
  secretStored: boolean;
  /** The file's permission bits after writing, e.g. 0o600. */
  mode: number;
  warnings: string[];
}

/** One line saying what was written where. */
export function formatInitOutcome(outcome: InitOutcome): string {
  const verb = outcome.created ? 'created' : 'updated';
  return `${verb} ${outcome.path} (${outcome.keys.join(', ')}; mode ${outcome.mode.toString(8)})\n`;
}

export function printInitOutcome(outcome: InitOutcome, options: { json?: boolean | undefined }, io: { stdout: TextSink; stderr: TextSink }): void {
  if (options.json) {
    const { exitCode, ...written } = outcome;
    // The mode as people write it ("600"), not as a decimal number.
    io.stdout.write(envelopeText(exitCode, snakeKeys({ ...written, mode: outcome.mode.toString(8) }) as object));
    return;
  }
  io.stdout.write(formatInitOutcome(outcome));
  for (const warning of outcome.warnings) io.stderr.write(`warning: ${warning}\n`);
}
