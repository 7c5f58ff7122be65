// `pushctl runs`: what the journals say about recent runs (docs/behaviour.md#runs).
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { readRunHead } from '../../journal/read-run.js';
import { listRunFiles, runsDir } from '../../journal/runs-dir.js';
import { overview, type RunOverview } from '../../journal/run-state.js';
import { foldFamilies } from '../../journal/target-family.js';
import { printRuns, type RunsOutcome } from '../../output/runs.js';
import { locksDir } from '../shared/own-run.js';
import { runnable } from '../shared/runnable.js';
import { runsOptionsSchema, type RunsOptions } from './options.js';

const DEFAULT_LIMIT = 20;

/** The newest runs of the runs directory, as data (`pushctl runs` and the MCP tool list_runs print it). */
export function listRuns(options: Pick<RunsOptions, 'limit'>, ctx: Pick<Ctx, 'env'>): { dir: string; runs: RunOverview[] } {
  const dir = runsDir(ctx.env);
  const runs: RunOverview[] = [];
  for (const file of listRunFiles(dir).slice(0, options.limit ?? DEFAULT_LIMIT)) {
    const view = readRunHead(file.path, locksDir(ctx.env));
    if (view) runs.push(overview(view));
  }
  // A resend is newer than the run it resent, so a listed run's resends are listed too.
  for (const run of runs) {
    const resends = runs.filter((other) => other.parent === run.run_id).map((other) => other.run_id);
    if (resends.length > 0) run.resent_by = resends.sort();
  }
  // A send to several targets is one line (docs/behaviour.md#targets).
  return { dir, runs: foldFamilies(runs) };
}

export async function runs(options: RunsOptions, ctx: Pick<Ctx, 'env'>): Promise<RunsOutcome> {
  return { exitCode: ExitCode.ok, ...listRuns(options, ctx) };
}

export const command = runnable(runsOptionsSchema, runs, printRuns);
