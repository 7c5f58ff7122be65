// How `pushctl runs` reads: pure formatters from run overviews to text, fitted to the terminal (80 columns
// when it does not say), columns labelled in words.
import type { BatchResult } from '../client/send-batches.js';
import type { RunOverview } from '../journal/run-state.js';
import { stateWords } from '../journal/read-run.js';
import { describeCode } from './delivery.js';
import { escapeControl, onceFlag } from './escape-control.js';
import type { TextSink } from '../context.js';
import type { ExitCode } from '../errors.js';
import { formatResendAdvice, type ResendAdvice } from './resend-advice.js';
import { formatVariants } from './variant-lines.js';
import { plainStyle } from './style.js';
import { counted } from '../counted.js';
import type { VariantSummary } from '../client/variant-summary.js';
import type { FamilyOutcome } from '../journal/family-outcome.js';
import type { OutcomeCounts } from '../client/report.js';

/** What a run's accepted column says: `4000/5000`, or the audience for a run without client IDs. */
function acceptedCell(r: RunOverview): string {
  if (r.audience) return r.summary.batches.accepted === r.summary.batches.total && r.summary.batches.total > 0 ? (r.audience === 'all devices' ? 'all devices' : 'condition') : 'none';
  return `${r.summary.recipients.accepted}/${r.summary.recipients.total}`;
}

/** The runs a line stands for: a send to several targets' target runs, or the run itself. */
const membersOf = (r: RunOverview): readonly RunOverview[] => ('target_runs' in r && Array.isArray(r.target_runs) ? (r.target_runs as RunOverview[]) : [r]);

/** Whether the line's run, or a target run of it, was resent: what that run left is on its resend's line. */
const wasResent = (r: RunOverview) => membersOf(r).some((m) => m.resent_by?.length);

/** Recipients (requests, for an audience) not sent or in doubt; a resent run's are its resend's to count. */
function leftCell(r: RunOverview): string {
  let left = 0;
  for (const m of membersOf(r)) {
    if (m.resent_by?.length || m.replaced_by !== undefined) continue;
    const counts = m.audience ? m.summary.batches : m.summary.recipients;
    // A resend's line counts what the runs it resent left in doubt too: the family's left is on its line.
    left += counts.not_sent + counts.in_doubt + (m.in_doubt_before ?? 0);
  }
  // A bare number reads as recipients, and a run to an audience has none to count: its requests are named.
  return left === 0 ? '-' : r.audience ? counted(left, 'request') : String(left);
}

/** Whether the line's run, or a target run of it, was replaced by a --once run sent afresh: its recipients are that run's. */
const wasReplaced = (r: RunOverview) => membersOf(r).some((m) => m.replaced_by !== undefined);

/** A send to several targets, folded into one line: how many. */
const targetsWords = (r: RunOverview) => ('target_runs' in r && Array.isArray(r.target_runs) ? `, ${counted(r.target_runs.length, 'target')}` : '');

/** `text` on one line of at most `width` characters, escapes shown: a title from a journal may be of any length. */
export function fit(text: string, width: number): string {
  const flat = escapeControl(text.replace(/\s+/g, ' '));
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}

/** One line a run, newest first. `width` is the terminal's; the title takes what the other columns leave. */
export function formatRunTable(runs: readonly RunOverview[], width = 80): string {
  const rows = [
    ['RUN', 'STATE', 'ACCEPTED', 'LEFT', 'TITLE'],
    ...runs.map((r) => [escapeControl(r.run_id), `${stateWords(r.state)}${wasResent(r) ? ', resent' : ''}${wasReplaced(r) ? ', replaced' : ''}${r.dry_run ? ' (dry)' : ''}${targetsWords(r)}`, acceptedCell(r), leftCell(r), r.title || '(no title)']),
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  const used = widths.reduce((n, w) => n + w + 2, 0);
  const titleWidth = Math.max(10, width - used - 1);
  const lines = rows.map((row) => [...row.slice(0, 4).map((cell, i) => cell.padEnd(widths[i]!)), fit(row[4]!, titleWidth)].join('  ').trimEnd());
  const resent = runs.some(wasResent) ? "a resent run's LEFT is on its resend's line\n" : '';
  return `${lines.join('\n')}\nACCEPTED of the run's recipients; LEFT not sent or in doubt: see runs show <run>\n${resent}`;
}

export interface RunDetail extends RunOverview {
  message_ids: string[];
  report?: string;
  resend_command?: string;
  include_in_doubt_command?: string;
  in_doubt?: number;
  /** A run with variants: counts per variant language (docs/behaviour.md#variants). */
  variants?: VariantSummary[];
  /** A run resent, or a resend: what its whole family delivered, each recipient once (docs/behaviour.md#resend). */
  family?: FamilyOutcome;
  /** A run stopped before the end of its input: the resend that read that input again, so it needs it no more. */
  input_given_again_by?: string;
  /** A resend of this run still sending: what is left is its to say once it ends. */
  running_resend?: { run_id: string; pid: number };
  /** The journal's flags naming a host or a file that the command does not repeat (docs/behaviour.md#trust). */
  left_out_of_command?: string[];
}

/** Says which of the journal's flags the command leaves out, and why: the user adds back those that are theirs. */
export const leftOutLine = (leftOut: readonly string[] | undefined): string =>
  leftOut?.length
    ? `its journal also names ${leftOut.map(escapeControl).join(', ')}: left out, as a journal never chooses a host or a file for you; add those that are yours\n`
    : '';

/** A labelled row of `runs show`: every value in one column, after the longest label ("replaced by", "message_ids"). */
const row = (label: string, value: string) => `  ${label.padEnd(12)}${value}\n`;

const countsLine = (label: string, c: OutcomeCounts) =>
  row(label, `${c.total}: accepted ${c.accepted}, rejected ${c.rejected}, in doubt ${c.in_doubt}, not sent ${c.not_sent}`);

/** Why batches did not get through, grouped by cause: the service's codes, and the reasons in words. */
export function failureReasons(results: readonly BatchResult[]): string[] {
  const causes = new Map<string, number>();
  for (const r of results) {
    if (r.status === 'accepted') continue;
    const label = r.status === 'in_doubt' ? 'in doubt' : r.status.replace('_', ' ');
    const cause = `${label}: ${r.code !== undefined ? describeCode(r.code, r.message) : escapeControl(r.reason ?? 'no reason recorded')}`;
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
  }
  return [...causes].map(([cause, n]) => `${cause} (${n} batch${n === 1 ? '' : 'es'})`);
}

/** What the run's family delivered together: its runs, its state, its counts and its languages, indented under it. */
function familyLines(family: FamilyOutcome, audience: boolean): string {
  const out = row('family', `${family.run_ids.length} runs (${family.run_ids.map(escapeControl).join(', ')}): ${stateWords(family.state)}`);
  let counts = countsLine('batches', family.summary.batches);
  if (!audience) counts += countsLine('recipients', family.summary.recipients);
  counts += formatVariants(family.variants?.map((v) => ({ ...v, label: escapeControl(v.label) })), plainStyle).replace(/^(?=.)/gm, '  ');
  return out + counts.replace(/^(?=.)/gm, '  ');
}

/** `asTarget`: one target of a run of several, whose family's resend command is printed once after all of them. */
export function formatRunDetail(run: RunDetail, results: readonly BatchResult[], advice: ResendAdvice | undefined, asTarget = false): string {
  // Everything here comes from a journal, which anyone may have written: escaped for the terminal.
  const e = escapeControl;
  let out = `${asTarget ? `target ${e(run.profile ?? '?')}: ` : ''}run ${e(run.run_id)} (${stateWords(run.state)}${run.dry_run ? ', dry run' : ''})\n`;
  if (run.title) out += row('title', fit(run.title, 200));
  out += row('started', `${e(String(run.started_at))}, app ${e(String(run.app_id))} → ${e(String(run.host))}`);
  out += row('journal', e(run.path));
  if (run.once !== undefined) out += row('once key', e(run.once));
  if (run.parent !== undefined) out += row('resends', `run ${e(run.parent)}`);
  if (run.resent_by?.length) out += row('resent by', `run ${run.resent_by.map(e).join(', run ')}`);
  if (run.replaced_by !== undefined) out += row('replaced by', `run ${e(run.replaced_by)}, which sent its whole input afresh under ${onceFlag(run.once ?? '')}`);
  if (run.replaces !== undefined) out += row('replaces', `run ${e(run.replaces)} (cut short while it wrote its plan; nothing of it was sent)`);
  if (run.incomplete) out += row('incomplete', `${e(run.incomplete)}${run.input_given_again_by !== undefined ? `; its input was given again to run ${e(run.input_given_again_by)}` : ''}`);
  if (run.audience) out += row('audience', `${e(run.audience)} (no client IDs to count)`);
  out += countsLine('batches', run.summary.batches);
  if (!run.audience) out += countsLine('recipients', run.summary.recipients);
  // The labels are language tags the journal holds: escaped like the rest of it.
  out += formatVariants(run.variants?.map((v) => ({ ...v, label: e(v.label) })), plainStyle).replace(/^(?=.)/gm, '  ');
  for (const reason of failureReasons(results)) out += `  ${reason}\n`;
  if (run.message_ids.length > 0) {
    const shown = run.message_ids.slice(0, 10);
    const more = run.message_ids.length - shown.length;
    out += row('message_ids', `${shown.map(escapeControl).join(', ')}${more > 0 ? ` (+${more} more; --json lists all)` : ''}`);
  }
  if (run.report) out += row('report', e(run.report));
  if (run.family) out += familyLines(run.family, run.audience !== undefined);
  if (asTarget) return out;
  // Its input given again to a resend, it is finished like any other run.
  const needsInput = run.incomplete !== undefined && run.input_given_again_by === undefined;
  if (run.replaced_by !== undefined) out += 'nothing left to send: the run that replaced it sent its recipients\n';
  else if (needsInput && run.resend_command !== undefined) {
    out += `it stopped before it read all of its client-ID input; to send the rest (never a recipient it planned), give that input again:\n  ${run.resend_command}\n`;
  } else if (needsInput) out += 'it cannot be resent: nothing was sent before its plan was complete; send again from the original input\n';
  else if (run.running_resend) out += `run ${e(run.running_resend.run_id)}, a resend of it, is still running (pid ${run.running_resend.pid}): see pushctl runs show ${e(run.running_resend.run_id)}\n`;
  else if (advice) out += formatResendAdvice(advice);
  else if (run.state !== 'running') out += 'nothing left to send\n';
  return out + leftOutLine(run.left_out_of_command);
}

/** What `pushctl runs` comes to: the runs directory and its newest runs. */
export interface RunsOutcome {
  exitCode: ExitCode;
  dir: string;
  runs: RunOverview[];
}

/** The table on stdout (a hint on stderr when there is none yet); or one JSON document. */
export function printRuns(outcome: RunsOutcome, options: { json?: boolean | undefined }, ctx: { stdout: TextSink & { columns?: number }; stderr: TextSink }): void {
  const { dir, runs } = outcome;
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: outcome.exitCode, runs_dir: dir, runs }, null, 2)}\n`);
  else if (runs.length === 0) ctx.stderr.write(`no runs yet in ${dir}\nhint: every \`pushctl send\` and \`pushctl dry-run\` writes one\n`);
  else ctx.stdout.write(formatRunTable(runs, ctx.stdout.columns || 80));
}

/**
 * What `pushctl runs show` comes to: the run's detail, its batches, and what a resend would send; or, for a
 * run of several targets, every target's and the family's (docs/behaviour.md#targets).
 */
export type RunShowOutcome =
  | { exitCode: ExitCode; detail: RunDetail; results: BatchResult[]; advice: ResendAdvice | undefined }
  | { exitCode: ExitCode; family: { run: RunDetail; text: string } };

export function printRunDetail(outcome: RunShowOutcome, options: { json?: boolean | undefined }, ctx: { stdout: TextSink }): void {
  const run = 'family' in outcome ? outcome.family.run : outcome.detail;
  if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: outcome.exitCode, run }, null, 2)}\n`);
  else ctx.stdout.write('family' in outcome ? outcome.family.text : formatRunDetail(outcome.detail, outcome.results, outcome.advice));
}
