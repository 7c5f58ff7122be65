// A `once` re-run of several targets as the action counts it: the key's whole audience (docs/behaviour.md#once,
// docs/behaviour.md#action). A target found done already reads as its whole run family; a target resumed now
// is read the same way here, from its journals, so the outputs and the summary never add one target's every
// run to another's last attempt. What this attempt sent is kept apart for the summary.
import type { Ctx } from '../../context.js';
import type { DeliverySummary } from '../../client/report.js';
import { closedState, readRun, type RunState } from '../../journal/read-run.js';
import { familyOutcome } from '../../journal/family-outcome.js';
import { familyOf } from './resume.js';
import { locksDir } from './own-run.js';
import { sumSummaries } from '../../client/report.js';
import type { TargetResult, TargetsOutcome } from '../../output/targets.js';

export interface TargetsAsKey {
  /** The outcome with every resumed target's row counting its key's whole family. */
  outcome: TargetsOutcome;
  /** The targets resumed now, each with the run it found unfinished. */
  resumed: { profile: string; runId: string }[];
  /** What this attempt sent to the resumed targets. */
  attempt?: DeliverySummary;
  /** The key's state over every target, when some target resumed. */
  state?: RunState;
}

export function targetsAsKey(outcome: TargetsOutcome, env: Ctx['env']): TargetsAsKey {
  const resumed = outcome.targets.filter((t) => t.resumedFrom !== undefined && t.journalPath !== undefined);
  if (resumed.length === 0) return { outcome, resumed: [] };
  const targets = outcome.targets.map((t) => (resumed.includes(t) ? keyFamily(t, env) : t));
  // A skipped row already counts its family: its state is that of its counts.
  const states = targets.map((t) => (t.state === 'skipped' ? closedState(t.summary, false) : t.state));
  return {
    outcome: { ...outcome, targets },
    resumed: resumed.map((t) => ({ profile: t.profile, runId: t.resumedFrom! })),
    attempt: sumSummaries(resumed.map((t) => t.summary)),
    state: states.every((s) => s === states[0]) ? states[0]! : 'partly_sent',
  };
}

/** A resumed target's row as its key: every run of its family, each recipient under the newest run's word. */
function keyFamily(target: TargetResult, env: Ctx['env']): TargetResult {
  const family = familyOutcome(familyOf(readRun(target.journalPath!, locksDir(env)), env));
  return { ...target, state: family.state, summary: family.summary, messageIds: family.message_ids, ...(family.variants ? { variants: family.variants } : {}) };
}
