// `pushctl runs` and `pushctl runs show`: what the journals say about recent runs (docs/behaviour.md#runs).
import { dirname } from 'node:path';
import * as z from 'zod/mini';
import type { Ctx } from '../context.js';
import { checkOptions, wholeNumber } from './shared/check-options.js';
import { ExitCode } from '../errors.js';
import { locateRun } from './shared/locate-run.js';
import { readRunHead, readRunWhole, resendsOf } from '../journal/read-run.js';
import { listRunFiles, runsDir } from '../journal/runs-dir.js';
import { messageIds, overview, type RunOverview } from '../journal/run-state.js';
import type { SecretScrubber } from '../output/redact.js';
import { formatRunDetail, formatRunTable, type RunDetail } from '../output/runs.js';
import { openReportFile, writeReport } from './shared/report-file.js';
import { resendAdvice, resendRun } from './shared/resend-command.js';
import { familyOf, remainingOf, resendWithInput } from './shared/resume.js';

export interface RunsListOptions {
  json?: boolean;
  limit?: number;
}

export interface RunsShowOptions {
  run: string;
  json?: boolean;
  report?: string;
}

const DEFAULT_LIMIT = 20;
const runsListSchema = z.object({ limit: z.optional(wholeNumber('limit', 1, 100_000, '--limit 50')) });

export async function runsListCommand(options: RunsListOptions, ctx: Ctx): Promise<number> {
  checkOptions(runsListSchema, options);
  const dir = runsDir(ctx.env);
  const runs: RunOverview[] = [];
  for (const file of listRunFiles(dir).slice(0, options.limit ?? DEFAULT_LIMIT)) {
    const view = readRunHead(file.path);
    if (view) runs.push(overview(view));
  }
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, runs_dir: dir, runs }, null, 2)}\n`);
  else if (runs.length === 0) ctx.stderr.write(`no runs yet in ${dir}\nhint: every \`pushctl send\` and \`pushctl dry-run\` writes one\n`);
  else ctx.stdout.write(formatRunTable(runs, (ctx.stdout as { columns?: number }).columns || 80));
  return ExitCode.ok;
}

export async function runsShowCommand(options: RunsShowOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  const { path, ref } = locateRun(options.run, ctx);
  const run = readRunWhole(path);
  const report = options.report === undefined ? undefined : await openReportFile(options.report, ctx.cwd);
  if (report) await writeReport(report, run.results, scrubber);
  const base = overview(run);
  // What a resend of this run would send: what the run and its resends left together.
  const left = run.incomplete || run.state === 'running' ? undefined : remainingOf(familyOf(run, ctx.env), false);
  const advice = left ? resendAdvice(resendRun(ref), left, base.audience) : undefined;
  // Stopped before it read all of its input: the one command is the resend given that input again.
  const withInput = run.state === 'running' ? undefined : resendWithInput(run, ref);
  const children = resendsOf([dirname(path), runsDir(ctx.env)], run.header.run_id);
  const detail: RunDetail = {
    ...base,
    message_ids: messageIds(run.results),
    ...(children.length > 0 ? { resent_by: children } : {}),
    ...(report ? { report: report.path } : {}),
    ...(advice?.command ? { resend_command: advice.command } : withInput ? { resend_command: withInput } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeUnknownCommand ? { include_unknown_command: advice.includeUnknownCommand } : {}),
  };
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, run: detail }, null, 2)}\n`);
  else ctx.stdout.write(formatRunDetail(detail, run.results, advice));
  return ExitCode.ok;
}
