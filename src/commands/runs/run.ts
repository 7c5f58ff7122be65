// `pushctl runs`: what the journals say about recent runs (docs/behaviour.md#runs).
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { readRunHead } from '../../journal/read-run.js';
import { checkRunsDir, journalHeader, listRunNames, runsDir } from '../../journal/runs-dir.js';
import { overview, type RunOverview } from '../../journal/run-state.js';
import { foldFamilies } from '../../journal/target-family.js';
import { resentBy } from '../../journal/resent-by.js';
import { printRuns, type RunsOutcome } from '../../output/runs.js';
import { locksDir } from '../shared/own-run.js';
import { runnable } from '../shared/runnable.js';
import { runsOptionsSchema, type RunsOptions } from './options.js';

const DEFAULT_LIMIT = 20;

/** The newest runs of the runs directory, as data (`pushctl runs` and the MCP tool list_runs print it). */
export function listRuns(options: Pick<RunsOptions, 'limit'>, ctx: Pick<Ctx, 'env'>): { dir: string; runs: RunOverview[] } {
  const dir = runsDir(ctx.env);
  checkRunsDir(dir, ctx.env);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const runs: RunOverview[] = [];
  // The limit counts lines, and a send to several targets is one line whose targets are read whole.
  const lines = new Set<string>();
  const families = new Set<string>();
  // By name: the newest few are read, not every journal of a month stat-ed to be ordered.
  for (const file of listRunNames(dir)) {
    if (lines.size >= limit) {
      // A target's run starts in its family's first second or later (the family's id is its first run's), and
      // the files come newest first: past every listed family's first second, none of theirs is left.
      if (![...families].some((family) => file.id.slice(0, 15) >= family.slice(0, 15))) break;
      const family = journalHeader(file.file ?? file.path)?.targets;
      if (family === undefined || !families.has(family)) continue;
    }
    const view = readRunHead(file.path, locksDir(ctx.env));
    if (!view) continue;
    const run = overview(view);
    lines.add(run.targets ?? run.run_id);
    if (run.targets !== undefined) families.add(run.targets);
    runs.push(run);
  }
  // A resend is newer than the run it resent, so a listed run's resends are listed too.
  const resends = resentBy(runs);
  for (const run of runs) {
    const later = resends.get(run.run_id);
    if (later !== undefined) run.resent_by = later;
    // Likewise the run sent afresh in place of one cut short while planning (docs/behaviour.md#once).
    const replacement = runs.filter((other) => other.replaces === run.run_id && run.incomplete !== undefined).map((other) => other.run_id).sort().pop();
    if (replacement !== undefined) run.replaced_by = replacement;
  }
  // A send to several targets is one line (docs/behaviour.md#targets).
  return { dir, runs: foldFamilies(runs) };
}

export async function runs(options: RunsOptions, ctx: Pick<Ctx, 'env'>): Promise<RunsOutcome> {
  return { exitCode: ExitCode.ok, ...listRuns(options, ctx) };
}

export const command = runnable(runsOptionsSchema, runs, printRuns);
