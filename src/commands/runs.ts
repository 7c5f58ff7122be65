// `pushctl runs` and `pushctl runs show`: what the journals say about recent runs (docs/behaviour.md#runs).
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import type { Ctx } from '../context.js';
import { checkOptions, wholeNumber } from './shared/check-options.js';
import { ExitCode } from '../errors.js';
import { locateRun } from './shared/locate-run.js';
import { readRun, readRunHead, readRunLeft, resendsOf } from '../journal/read-run.js';
import { locksDir } from './shared/own-run.js';
import { listRunFiles, runsDir } from '../journal/runs-dir.js';
import { messageIds, overview, type RunOverview } from '../journal/run-state.js';
import type { SecretScrubber } from '../output/redact.js';
import { formatRunDetail, formatRunTable, type RunDetail } from '../output/runs.js';
import { summarizeVariants } from '../client/variant-summary.js';
import type { ResendAdvice } from '../output/resend-advice.js';
import type { BatchResult } from '../client/send-batches.js';
import { openReportFile, writeReport } from './shared/report-file.js';
import { resendAdvice, resendRun, settingsFlags } from './shared/resend-command.js';
import { familyOf, remainingOf, resendWithInput } from './shared/resume.js';
import { foldFamilies } from '../journal/target-family.js';
import { locateFamily, showFamily } from './shared/target-runs.js';

export interface RunsListOptions {
  json?: boolean;
  limit?: number;
}

export interface RunsShowOptions {
  run: string;
  json?: boolean;
  report?: string;
  /** `--force`: `--report` may replace a file that is not a report of this run. */
  force?: boolean;
}

const DEFAULT_LIMIT = 20;
const runsListSchema = z.object({ limit: z.optional(wholeNumber('limit', 1, 100_000, '--limit 50')) });

/** The newest runs of the runs directory, as data (`pushctl runs` and the MCP tool list_runs print it). */
export function listRuns(options: Pick<RunsListOptions, 'limit'>, ctx: Pick<Ctx, 'env'>): { dir: string; runs: RunOverview[] } {
  checkOptions(runsListSchema, options);
  const dir = runsDir(ctx.env);
  const runs: RunOverview[] = [];
  for (const file of listRunFiles(dir).slice(0, options.limit ?? DEFAULT_LIMIT)) {
    const view = readRunHead(file.path, locksDir(ctx.env));
    if (view) runs.push(overview(view));
  }
  // A send to several targets is one line (docs/behaviour.md#targets).
  return { dir, runs: foldFamilies(runs) };
}

export async function runsListCommand(options: RunsListOptions, ctx: Ctx): Promise<number> {
  const { dir, runs } = listRuns(options, ctx);
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, runs_dir: dir, runs }, null, 2)}\n`);
  else if (runs.length === 0) ctx.stderr.write(`no runs yet in ${dir}\nhint: every \`pushctl send\` and \`pushctl dry-run\` writes one\n`);
  else ctx.stdout.write(formatRunTable(runs, (ctx.stdout as { columns?: number }).columns || 80));
  return ExitCode.ok;
}

/** One run as data: its detail, its batches and what a resend would send (`runs show` and the MCP tool show_run). */
export async function showRun(options: Omit<RunsShowOptions, 'json'>, ctx: Pick<Ctx, 'env' | 'cwd'>, scrubber: SecretScrubber): Promise<{ detail: RunDetail; results: BatchResult[]; advice: ResendAdvice | undefined }> {
  const { path, ref } = locateRun(options.run, ctx);
  // The client IDs of what it left (for the resend advice), and all of them only for a report.
  const run = options.report !== undefined ? readRun(path, locksDir(ctx.env)) : readRunLeft(path, locksDir(ctx.env));
  const report = options.report === undefined ? undefined : await openReportFile(options.report, ctx.cwd, { force: options.force === true, runIds: [run.header.run_id] });
  if (report) await writeReport(report, run.results, scrubber, run.header.run_id);
  const base = overview(run);
  // What a resend of this run would send: what the run and its resends left together.
  const left = run.incomplete || run.state === 'running' ? undefined : remainingOf(familyOf(run, ctx.env), false);
  const advice = left ? resendAdvice(resendRun(ref, undefined, settingsFlags(run.header.argv)), left, base.audience) : undefined;
  // Stopped before it read all of its input: the one command is the resend given that input again.
  const withInput = run.state === 'running' ? undefined : resendWithInput(run, ref);
  const children = resendsOf([dirname(path), runsDir(ctx.env)], run.header.run_id);
  const variants = summarizeVariants(run.results);
  const detail: RunDetail = {
    ...base,
    message_ids: messageIds(run.results),
    ...(variants ? { variants } : {}),
    ...(children.length > 0 ? { resent_by: children } : {}),
    ...(report ? { report: report.path } : {}),
    ...(advice?.command ? { resend_command: advice.command } : withInput ? { resend_command: withInput } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeInDoubtCommand ? { include_in_doubt_command: advice.includeInDoubtCommand } : {}),
  };
  return { detail, results: run.results, advice };
}

export async function runsShowCommand(options: RunsShowOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  // A run of several targets shows every target (docs/behaviour.md#targets); --report writes the one run named.
  const family = options.report === undefined ? locateFamily(options.run, ctx) : undefined;
  if (family) {
    const shown = await showFamily(family, ctx, scrubber, showRun);
    ctx.stdout.write(options.json ? `${JSON.stringify({ ok: true, exit_code: ExitCode.ok, run: shown.run }, null, 2)}\n` : shown.text);
    return ExitCode.ok;
  }
  const { detail, results, advice } = await showRun(options, ctx, scrubber);
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, run: detail }, null, 2)}\n`);
  else ctx.stdout.write(formatRunDetail(detail, results, advice));
  return ExitCode.ok;
}
