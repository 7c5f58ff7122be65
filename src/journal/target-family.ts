// The runs of one send to several targets (docs/behaviour.md#targets), taken as one: every target's journal
// names the family (its first target's run id) in its header. `pushctl runs` lists the family on one line,
// `runs show` and `resend` take any member's id for the whole family.
import { sumSummaries } from '../client/report.js';
import type { HeaderRecord } from './records.js';
import type { RunOverview, RunState } from './run-state.js';
import { journalHeader, listRunFiles } from './runs-dir.js';

/** The journals of family `family` in `dirs`, by first line only, in the order their targets were given. */
export function familyMembers(dirs: readonly string[], family: string): { path: string; header: HeaderRecord }[] {
  const members = new Map<string, { path: string; header: HeaderRecord }>();
  for (const dir of new Set(dirs)) {
    for (const file of listRunFiles(dir)) {
      const header = journalHeader(file);
      if (header?.targets === family && !members.has(header.run_id)) members.set(header.run_id, { path: file.path, header });
    }
  }
  // The first target's run id is the family's; the others follow in the order they started.
  return [...members.values()].sort((a, b) => rank(a.header, family) - rank(b.header, family) || (a.header.started_at < b.header.started_at ? -1 : a.header.started_at > b.header.started_at ? 1 : a.header.run_id < b.header.run_id ? -1 : 1));
}

const rank = (header: HeaderRecord, family: string) => (header.run_id === family ? 0 : 1);

/** What the targets came to together: the state a person reads first (running, killed) before the outcome. */
export function familyState(states: readonly RunState[]): RunState {
  for (const first of ['running', 'killed', 'incomplete', 'interrupted'] as const) if (states.includes(first)) return first;
  if (states.every((state) => state === states[0])) return states[0]!;
  return states.some((state) => state === 'sent' || state === 'partly_sent') ? 'partly_sent' : states[0]!;
}

/** As a send of several targets exits (docs/behaviour.md#exit-codes): 0 all, 7 some, else the first failure; null while one has not closed. */
function familyExitCode(codes: readonly (number | null)[]): number | null {
  if (codes.some((code) => code === null)) return null;
  if (codes.every((code) => code === 0)) return 0;
  return codes.some((code) => code === 0 || code === 7) ? 7 : codes.find((code) => code !== 0)!;
}

/** A family's line: the members' counts added up, its id the family's, its app and host each target's. */
export function familyOverview(members: readonly RunOverview[]): RunOverview & { target_runs: RunOverview[] } {
  const lead = members.find((m) => m.run_id === m.targets) ?? members[0]!;
  const codes = members.map((m) => m.exit_code);
  return {
    ...lead,
    run_id: lead.targets ?? lead.run_id,
    app_id: members.map((m) => m.app_id).join(', '),
    host: members.map((m) => m.host).join(', '),
    // Every target's, as app_id and host: the lead's alone would read as a run of one profile.
    ...(members.some((m) => m.profile !== undefined) ? { profile: members.map((m) => m.profile ?? '?').join(', ') } : {}),
    state: familyState(members.map((m) => m.state)),
    exit_code: familyExitCode(codes),
    summary: sumSummaries(members.map((m) => m.summary)),
    target_runs: [...members],
  };
}

/** The list of runs with each family folded into one line, where its newest member stood. */
export function foldFamilies(runs: readonly RunOverview[]): RunOverview[] {
  const byFamily = new Map<string, RunOverview[]>();
  for (const run of runs) if (run.targets !== undefined) byFamily.set(run.targets, [...(byFamily.get(run.targets) ?? []), run]);
  const out: RunOverview[] = [];
  for (const run of runs) {
    if (run.targets === undefined) out.push(run);
    else if (byFamily.get(run.targets)![0] === run) {
      const members = byFamily.get(run.targets)!;
      out.push(familyOverview([...members].sort((a, b) => (a.run_id === a.targets ? -1 : b.run_id === b.targets ? 1 : 0))));
    }
  }
  return out;
}
