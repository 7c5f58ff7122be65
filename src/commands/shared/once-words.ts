// What a `--once` re-run says it does with the key's earlier run before it sends (docs/behaviour.md#once):
// resumes it, or sends afresh in place of a run cut short while it wrote its plan. One wording for a single
// target and for each target of several, so the second process of an overlapping cron says what it did.
import { stateWords } from '../../journal/read-run.js';
import { onceFlag } from '../../output/escape-control.js';
import type { RunClaim } from './claim.js';

/** The line to print (ending in a newline), or undefined when the run neither resumes nor replaces one. */
export function onceClaimLine(key: string, claim: Pick<RunClaim, 'resume' | 'afresh'>): string | undefined {
  const once = onceFlag(key);
  if (claim.resume) return `${once}: resuming run ${claim.resume.parent} (${stateWords(claim.resume.state)}): ${claim.resume.left} left to send\n`;
  if (claim.afresh !== undefined) return `${once}: run ${claim.afresh} was cut short while it wrote its plan, before anything was sent: sending afresh\n`;
  return undefined;
}
