// The report of a run family — a run and the resends that continued it — read as one run's report reads:
// every recipient once, under the newest run's word for it (docs/behaviour.md#reports). What a `--once`
// re-run that finds its key done writes with `--report`, from the CLI and from the action alike, and so does
// one that resumes the family.
import type { Ctx } from '../../context.js';
import type { BatchResult } from '../../client/batch-result.js';
import { familyResults } from '../../journal/family-outcome.js';
import { readRun, type RunView } from '../../journal/read-run.js';
import type { SecretScrubber } from '../../output/redact.js';
import { locksDir } from './own-run.js';
import { openReportFile, writeReport } from './report-file.js';
import { familyOf } from './resume.js';

/** Writes the report of `run`'s family to `path` (a report of the family may be replaced); returns the path as given. */
export async function writeFamilyReport(run: RunView, path: string, ctx: Pick<Ctx, 'env' | 'cwd'>, scrubber: SecretScrubber, force: boolean): Promise<string> {
  // Read whole: the skip read the family only for what it left, and a report lists every recipient.
  const members = familyOf(readRun(run.path, locksDir(ctx.env)), ctx.env, true);
  const report = await openReportFile(path, ctx.cwd, { force, runIds: members.map((member) => member.header.run_id) });
  await writeReport(report, familyResults(members), scrubber, run.header.run_id);
  return report.path;
}

/**
 * For a run that continues `earlierPath`'s family (a `--once` resume): its results joined to the family's,
 * each recipient under the newest word, for its report. The family is read whole now, before sending.
 */
export function joinedToFamily(earlierPath: string, env: Ctx['env']): (own: BatchResult[]) => BatchResult[] {
  const members = familyOf(readRun(earlierPath, locksDir(env)), env, true);
  const newest = members[members.length - 1]!;
  return (own) => familyResults([...members, { ...newest, results: own }]);
}
