// How `pushctl init` reads: one line saying what was written where, then the warnings; or one JSON envelope.
import type { TextSink } from '../context.js';
import { envelopeText, snakeKeys } from './envelope.js';

/** What `init` wrote (src/commands/init.ts). */
export interface InitOutcome {
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

export function printInitOutcome(outcome: InitOutcome, mode: { json?: boolean }, io: { stdout: TextSink; stderr: TextSink }): void {
  if (mode.json) {
    // The mode as people write it ("600"), not as a decimal number.
    io.stdout.write(envelopeText(0, snakeKeys({ ...outcome, mode: outcome.mode.toString(8) }) as object));
    return;
  }
  io.stdout.write(formatInitOutcome(outcome));
  for (const warning of outcome.warnings) io.stderr.write(`warning: ${warning}\n`);
}
