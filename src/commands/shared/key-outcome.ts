// A `--once` re-run answers for its key (docs/behaviour.md#once): whether it finds the key's runs done or
// resumes them, its exit status is that of what the key's runs delivered together — the family `runs show`
// counts — so two re-runs of one key in one state never disagree (a resume that delivered all it sent said
// 0 beside recipients its parent left in doubt, where the next re-run, finding them, said they were left).
import { deliveryExitCode } from '../../client/report.js';
import { familyOutcome, familyResults } from '../../journal/family-outcome.js';
import { readRun, type RunView } from '../../journal/read-run.js';
import type { DeliveryOutcome } from '../../output/delivery.js';
import { locksDir } from './own-run.js';
import { familyOf } from './resume.js';

/** The exit status of a run family's outcome: every batch's newest word, as one delivery's would be. */
export function familyExitCode(family: readonly RunView[]): number {
  return deliveryExitCode(familyResults(family), false);
}

/**
 * A resume that ran to its end, answered for its key: the key's outcome beside this attempt's counts, and
 * the key's exit status. A resume stopped (a signal, its run taken over, a journal that failed) keeps its own:
 * what stopped it is the news.
 */
export function answerForKey(delivery: DeliveryOutcome, env: Record<string, string | undefined>): DeliveryOutcome {
  if (delivery.journalPath === undefined || delivery.stopError !== undefined || delivery.interrupted) return delivery;
  const family = familyOf(readRun(delivery.journalPath, locksDir(env)), env);
  return { ...delivery, exitCode: familyExitCode(family), key: familyOutcome(family) };
}
