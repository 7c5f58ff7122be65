// What a run of several targets left, and the one command that finishes it: `pushctl resend <family>`, which
// sends every target's remainder to its own destination (docs/behaviour.md#targets).
import { familyFlags, leftToSend, resendAdvice, resendRun, type ResendAdvice } from './resend-command.js';
import type { TargetResult } from '../../output/targets.js';
import type { RunClaim } from './claim.js';
import type { SkippedRun } from '../../output/skipped-run.js';

export interface TargetLeft {
  notSent: number;
  inDoubt: number;
  audience?: string;
}

/** What one target left: its own counts, and those in doubt that an earlier run of it left (a resumed --once). */
export function leftOf(result: TargetResult, claim: RunClaim<{ skipped?: SkippedRun }> | undefined): TargetLeft {
  if (result.state === 'skipped') {
    const inDoubt = claim?.skipped?.skipped?.left.inDoubt ?? 0;
    return { notSent: 0, inDoubt, ...(result.audience ? { audience: result.audience } : {}) };
  }
  if (result.runId === undefined) return { notSent: 0, inDoubt: 0 };
  const own = leftToSend(result.summary, result.audience);
  return { notSent: own.notSent, inDoubt: own.inDoubt + (claim?.resume?.inDoubt ?? 0), ...(result.audience ? { audience: result.audience } : {}) };
}

/** The advice over every target: counts added up (recipients, or the audience's batches), one command. */
export function familyAdvice(family: string, lefts: readonly TargetLeft[], argv: readonly string[], dryRun = false): ResendAdvice | undefined {
  const total = lefts.reduce((sum, left) => ({ notSent: sum.notSent + left.notSent, inDoubt: sum.inDoubt + left.inDoubt }), { notSent: 0, inDoubt: 0 });
  const audience = lefts.find((left) => left.audience !== undefined)?.audience;
  return resendAdvice(resendRun(family, undefined, familyFlags(argv)), total, audience, undefined, dryRun);
}
