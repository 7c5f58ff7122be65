// Which runs sent again what a run left (docs/behaviour.md#runs). A resend of any run of a family (the run and
// the resends of it, and of those) sends what the whole family left when it started: so a run's leftovers are
// sent again by every later resend of its family, not only by the resends that name it as their parent. A
// first resend that the service refused, then the run resent again, leaves nothing on the refused one.
import type { RunOverview } from './run-state.js';

/** Each run's id mapped to the later resends of its family among `runs`, oldest first; runs with none are absent. */
export function resentBy(runs: readonly Pick<RunOverview, 'run_id' | 'parent' | 'started_at'>[]): Map<string, string[]> {
  const byId = new Map(runs.map((run) => [run.run_id, run]));
  // The family's first run, or the oldest ancestor named when it is not among those listed.
  const root = (run: Pick<RunOverview, 'run_id' | 'parent'>): string => {
    let at = run;
    for (let seen = 0; at.parent !== undefined && seen < runs.length; seen++) {
      const parent = byId.get(at.parent);
      if (parent === undefined) return at.parent;
      at = parent;
    }
    return at.run_id;
  };
  const resends = runs.filter((run) => run.parent !== undefined).map((run) => ({ run, family: root(run) }));
  const out = new Map<string, string[]>();
  for (const run of runs) {
    const family = root(run);
    const later = resends.filter((r) => r.family === family && r.run.run_id !== run.run_id && (r.run.parent === run.run_id || r.run.started_at > run.started_at));
    if (later.length > 0) out.set(run.run_id, later.map((r) => r.run.run_id).sort());
  }
  return out;
}
