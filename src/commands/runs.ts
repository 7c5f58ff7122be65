// `pushctl runs` and `pushctl runs show`: what the journals say about recent runs (SPEC section 8).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { readJournal, type JournalRun } from '../journal/reader.js';
import type { EndRecord, HeaderRecord } from '../journal/records.js';
import { firstLine, lastLine, listRunFiles, runsDir } from '../journal/runs-dir.js';
import { messageIds, overview, runState, type RunOverview } from '../journal/run-state.js';
import { summarizeBatches } from '../client/report.js';
import type { SecretScrubber } from '../output/redact.js';
import { formatRunDetail, formatRunTable } from '../output/runs.js';
import { openReportFile, writeReport } from './shared/report-file.js';
import { resendCommand } from './shared/resend-command.js';

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

export async function runsListCommand(options: RunsListOptions, ctx: Ctx): Promise<number> {
  if (options.limit !== undefined && options.limit < 1) throw usageError('--limit must be at least 1', 'e.g. --limit 50');
  const dir = runsDir(ctx.env);
  const runs: RunOverview[] = [];
  for (const file of listRunFiles(dir).slice(0, options.limit ?? DEFAULT_LIMIT)) {
    const run = readOverview(file.path);
    if (run) runs.push(run);
  }
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, runs_dir: dir, runs }, null, 2)}\n`);
  else if (runs.length === 0) ctx.stderr.write(`no runs yet in ${dir}\nhint: every \`pushctl send\` and \`pushctl dry-run\` writes one\n`);
  else ctx.stdout.write(formatRunTable(runs));
  return ExitCode.ok;
}

export async function runsShowCommand(options: RunsShowOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  const path = locateRun(options.run, ctx);
  const run = readRun(path);
  const header = run.header!;
  const state = runState(run.end, processAlive(header.pid));
  const summary = summarizeBatches(run.results);
  const left = summary.recipients.unknown + summary.recipients.not_sent;
  const report = options.report === undefined ? undefined : await openReportFile(options.report, ctx.cwd);
  if (report) await writeReport(report, run.results, scrubber);
  const resend = left > 0 ? resendCommand(header.argv, path, report?.path) : undefined;
  const detail = { ...overview(path, header, run.end, state, run.results), message_ids: messageIds(run.results), ...(report ? { report: report.path } : {}), ...(resend ? { resend_command: resend } : {}) };
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, run: detail }, null, 2)}\n`);
  else ctx.stdout.write(formatRunDetail(detail, run.results));
  return ExitCode.ok;
}

/** A run id in the runs directory, or a journal file's path. */
function locateRun(run: string, ctx: Ctx): string {
  const asPath = resolve(ctx.cwd, run);
  if (existsSync(asPath)) return asPath;
  const dir = runsDir(ctx.env);
  const byId = listRunFiles(dir).filter((file) => file.id === run || file.id.startsWith(run));
  if (byId.length === 1) return byId[0]!.path;
  if (byId.length > 1) throw usageError(`"${run}" matches ${byId.length} runs`, 'give more of the run id (see `pushctl runs`)');
  throw usageError(`no run "${run}" in ${dir}, and no such file`, 'list the runs with `pushctl runs`, or give the path of a journal file');
}

function readRun(path: string): JournalRun {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`, 'give a run id from `pushctl runs` or a readable journal file');
  }
  const run = readJournal(text);
  if (!run.header) throw new CliError(`${path} is not a pushctl run journal (no header record)`, ExitCode.usage, 'give a run id from `pushctl runs` or a file that pushctl send wrote with --journal');
  return run;
}

/**
 * A run's overview for the list. A closed run's counts come from its first and last lines alone; a run with
 * no closing record (killed, or still running) is read whole to count what its batches came to.
 */
function readOverview(path: string): RunOverview | undefined {
  try {
    const first = firstLine(path);
    const header = JSON.parse(first) as HeaderRecord;
    if (header.t !== 'header') return undefined;
    let end: EndRecord | undefined;
    try {
      const last = JSON.parse(lastLine(path)) as EndRecord;
      if (last.t === 'end') end = last;
    } catch {
      // A torn last line: the run did not close.
    }
    const state = runState(end, processAlive(header.pid));
    return end ? overview(path, header, end, state) : overview(path, header, undefined, state, readJournal(readFileSync(path, 'utf8')).results);
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
