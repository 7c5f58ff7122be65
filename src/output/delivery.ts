// How a send's outcome reads: pure formatters from batch results to text (human) or a document (--json).
import { describeStatus } from '../client/codes.js';
import { serviceRefused, type DeliverySummary } from '../client/report.js';
import { closedState, stateWords, type RunState } from '../journal/read-run.js';
import type { FamilyOutcome } from '../journal/family-outcome.js';
import { recipientCount, type AttemptEvent, type BatchResult } from '../client/send-batches.js';
import type { RequestView } from '../client/outcome.js';
import type { MessageIssue } from '../message/types.js';
import type { Style } from './style.js';
import { escapeControl } from './escape-control.js';
import type { TextSink } from '../context.js';
import { formatResendAdvice, type ResendAdvice } from './resend-advice.js';
import type { VariantSummary } from '../client/variant-summary.js';
import { formatVariants } from './variant-lines.js';
import { counted } from '../counted.js';

/** One batch in the --json document. */
export interface BatchLine {
  batch: number;
  status: BatchResult['status'];
  recipients: number;
  attempts: number;
  message_id?: string;
  code?: number;
  meaning?: string;
  message?: string;
  /** What to do about the code (21006 → lower --batch-size). */
  hint?: string;
  reason?: string;
  /** The variant the batch carried (a language tag; null: the base message); absent without variants. */
  variant?: string | null;
}

/** The `--json` document of send and dry-run (documented in the README). */
export interface DeliveryDocument {
  ok: boolean;
  dry_run: boolean;
  exit_code: number;
  message_ids: string[];
  summary: DeliverySummary;
  batches: BatchLine[];
  warnings: MessageIssue[];
  notes: MessageIssue[];
  report?: string;
  /** The run's id and journal (absent with --no-journal). */
  run_id?: string;
  journal?: string;
  /** "all devices" or "condition: …" for a message with no client IDs. */
  audience?: string;
  /** `--once`: false when this run sent (a skip prints its own document, with true). */
  skipped: false;
  /** What the run came to, in the words `pushctl runs` uses (docs/behaviour.md#run-states). */
  state: RunState;
  /** The run this one resent (`pushctl resend`, or `--once` resuming). */
  resumed_from?: string;
  /**
   * `--once` resuming: the state of what the key's runs delivered together (equal to `state`, which then
   * answers for the key as a skip's does), and those runs (as a skip gives them).
   */
  run_state?: RunState;
  family_run_ids?: string[];
  /** `--once` resuming: what this attempt alone sent (the top level counts every run of the key). */
  attempt?: AttemptDocument;
  /** The one command that sends what is certainly not sent; absent when nothing is. */
  resend_command?: string;
  /** Recipients (batches, for an audience) in doubt, and the command that includes them. */
  in_doubt?: number;
  include_in_doubt_command?: string;
  /** When not ok: the outcome in a line, and what to do next. */
  error?: { message: string; hint?: string };
  /** A message with variants: counts per variant language (docs/behaviour.md#variants). */
  variants?: VariantSummary[];
}

/** What one attempt of a `--once` key sent, beside the key's whole outcome (docs/behaviour.md#once). */
export interface AttemptDocument {
  state: RunState;
  summary: DeliverySummary;
  message_ids: string[];
  variants?: VariantSummary[];
}

export function batchLine(result: BatchResult): BatchLine {
  const line: BatchLine = { batch: result.index, status: result.status, recipients: recipientCount(result), attempts: result.attempts };
  if (result.messageId !== undefined) line.message_id = result.messageId;
  if (result.code !== undefined) Object.assign(line, { code: result.code, meaning: describeStatus(result.code).meaning, message: result.message ?? '', hint: describeStatus(result.code).hint });
  if (result.reason !== undefined && result.status !== 'accepted') line.reason = result.reason;
  if (result.variant !== undefined) line.variant = result.variant;
  return line;
}

/** `21004 App Secret illegal (service: "auth failed")` */
export function describeCode(code: number, serviceText: string | undefined): string {
  const { meaning } = describeStatus(code);
  // JSON quoting escapes C0 controls; escapeControl then catches C1 and bidirectional overrides.
  const own = serviceText && serviceText !== meaning ? ` (service: ${escapeControl(JSON.stringify(serviceText))})` : '';
  return `${code} ${meaning}${own}`;
}

/** The verdict for a single request (a message to all devices, by targeting, or one batch of IDs). */
export function formatSingle(raw: BatchResult, dryRun: boolean, style: Style): string {
  // The message_id and a reason (a redirect's Location) come from the server: printed inert. The
  // service's text is quoted by describeCode.
  const result = inert(raw);
  switch (result.status) {
    case 'accepted':
      return dryRun
        ? `${style.ok('✓ sent (dry run)')}: the service checked the message; nothing was delivered (message_id ${result.messageId})\n`
        : `${style.ok('✓ sent')}: message_id ${style.code(result.messageId ?? '')}\n`;
    case 'rejected': {
      const hint = describeStatus(result.code ?? 0).hint;
      return `${style.error('✗ rejected')}: ${describeCode(result.code ?? 0, result.message)}\nhint: ${hint}\n`;
    }
    case 'in_doubt':
      return `${style.error('? in doubt')}: ${result.reason}\nThe message may or may not have been delivered; pushctl did not retry, to avoid sending it twice (--retry-in-doubt retries).\n`;
    case 'not_sent': {
      const code = result.code !== undefined ? `${describeCode(result.code, result.message)}: ` : '';
      const next = nextStepOf(raw);
      const hint = next !== undefined ? `\nhint: ${next}` : '';
      return `${style.error('✗ not sent')}: ${code}${result.reason}${hint}\n`;
    }
  }
}

/**
 * The outcome of a run in one line: what happened, not what was planned, headed by the run's state in the
 * words `runs` and `runs show` give it (docs/behaviour.md#run-states), so one outcome has one word wherever it
 * is read. After a stop it counts the batches that went out. A run to an audience (all devices, a condition)
 * has no client IDs to count: it names the audience and counts requests, never "0 recipients".
 */
export function deliveryHeadline(summary: DeliverySummary, results: readonly BatchResult[], dryRun: boolean, interrupted = false, audience?: string): string {
  const { batches, recipients } = summary;
  const state = closedState(summary, interrupted, serviceRefused(results));
  // A dry run's states are a send's, as `runs` lists them beside "(dry)".
  const word = `${stateWords(state)}${dryRun ? ' (dry run)' : ''}`;
  const of = (part: number) => (audience ? '' : ` (${part} of ${counted(recipients.total, 'recipient')})`);
  const kinds = ([['rejected', batches.rejected], ['in doubt', batches.in_doubt], ['not sent', batches.not_sent]] as const).filter(([, n]) => n > 0);
  const rest = kinds.map(([kind, n]) => `${n} ${kind}`).join(', ');
  const total = audience ? ` to ${audience}` : ` (${counted(recipients.total, 'recipient')})`;
  switch (state) {
    case 'sent':
      return `${word}: ${counted(batches.total, 'batch')}${audience ? total : `, ${counted(recipients.total, 'recipient')}`}`;
    case 'interrupted': {
      // Gone out: what the service may have taken. A batch answered "not processed" (22001, 503) on every
      // attempt made requests, yet is left to send, as a resend counts it.
      const out = results.filter((r) => r.status !== 'not_sent');
      const outRecipients = out.reduce((n, r) => n + recipientCount(r), 0);
      // Every batch under its word: a request a second signal cut is in doubt, and saying only 'accepted, not
      // sent' would leave it out of the count.
      return `${word}: ${out.length} of ${counted(batches.total, 'batch')} went out${of(outRecipients)}; ${[`${batches.accepted} accepted`, rest].filter(Boolean).join(', ')}`;
    }
    case 'partly_sent':
      return `${word}: ${batches.accepted} of ${counted(batches.total, 'batch')} accepted${of(recipients.accepted)}; ${rest}`;
    default: {
      // Nothing accepted: batches all of the state's own kind are "n of total"; otherwise each kind is named (a
      // batch refused for a setting is not sent, for the resend, though the run reads rejected).
      const counts = kinds.length === 1 && kinds[0]![0] === stateWords(state) ? String(kinds[0]![1]) : rest;
      return `${word}: ${counts} of ${counted(batches.total, 'batch')}${total}`;
    }
  }
}

/** The next step a batch's last attempt named, where it is the user's to take (trust a private CA, say). */
const fixOf = (result: BatchResult): string | undefined => (result.outcome?.kind === 'retryable' ? result.outcome.fix : undefined);

/** What to do about a batch that failed: its service code's hint, else the fix its failure named. */
const nextStepOf = (result: BatchResult): string | undefined => (result.code !== undefined ? describeStatus(result.code).hint : fixOf(result));

/** The hints of the service codes a run met (21006 → lower --batch-size), then the fixes its failures named: once each. */
export function codeHints(results: readonly BatchResult[]): string[] {
  const failed = results.filter((r) => r.status !== 'accepted');
  const codes = new Set(failed.flatMap((r) => (r.code !== undefined ? [r.code] : [])));
  const fixes = new Set(failed.flatMap((r) => fixOf(r) ?? []));
  return [...[...codes].map((code) => `${code}: ${describeStatus(code).hint}`), ...fixes];
}

/** The end-of-run summary for a batched send. */
export function formatSummary(summary: DeliverySummary, results: readonly BatchResult[], dryRun: boolean, style: Style, interrupted = false, elapsedSeconds?: number, audience?: string): string {
  const { batches, recipients } = summary;
  const row = (label: string, n: number, r: number, mark: (s: string) => string) =>
    n > 0 ? `  ${mark(label.padEnd(9))} ${String(n).padStart(6)} batch${n === 1 ? '' : 'es'}${audience ? '' : `  ${String(r).padStart(9)} recipients`}\n` : '';
  const lines = [
    `${deliveryHeadline(summary, results, dryRun, interrupted, audience)}${elapsedSeconds === undefined ? '' : ` in ${elapsedSeconds.toFixed(1)} s`}\n`,
    row('accepted', batches.accepted, recipients.accepted, style.ok),
    row('rejected', batches.rejected, recipients.rejected, style.error),
    row('in doubt', batches.in_doubt, recipients.in_doubt, style.warn),
    row('not sent', batches.not_sent, recipients.not_sent, style.warn),
  ];
  // Group failures by cause so a 200-batch run shows a handful of lines, not two hundred.
  const causes = new Map<string, number>();
  for (const raw of results) {
    // Accepted batches are only counted; and no batch is copied whole (its client IDs are made on reading).
    if (raw.status === 'accepted') continue;
    const r = inert(raw);
    const cause = r.code !== undefined ? describeCode(r.code, r.message) : (r.reason ?? r.status);
    const key = `${r.status.replace('_', ' ')}: ${cause}`;
    causes.set(key, (causes.get(key) ?? 0) + 1);
  }
  for (const [cause, n] of causes) lines.push(style.dim(`  ${cause} (${n} batch${n === 1 ? '' : 'es'})\n`));
  for (const hint of codeHints(results)) lines.push(`hint: ${hint}\n`);
  return lines.join('');
}

/** `--verbose`: the request as sent (secret as ***) and the raw answer, for one attempt. */
export function formatAttempt(event: AttemptEvent, request: RequestView): string {
  const { outcome } = event;
  const lines = [`> ${request.method} ${request.url}  (batch ${event.batch}, attempt ${event.attempt})`];
  for (const [k, v] of Object.entries(request.headers)) lines.push(`> ${k}: ${v}`);
  lines.push(`> ${truncate(request.body)}`);
  if (outcome.response) {
    lines.push(`< HTTP ${outcome.response.httpStatus}`);
    for (const [k, v] of Object.entries(outcome.response.headers)) lines.push(`< ${k}: ${v}`);
    lines.push(`< ${truncate(outcome.response.body)}`);
  }
  lines.push(`= ${outcome.kind}${'reason' in outcome ? `: ${outcome.reason}` : ''}${event.retryInMs !== undefined ? `; retrying in ${Math.round(event.retryInMs)} ms` : ''}`);
  // Each line is escaped on its own: the server's text must not move the cursor or start a line of its own.
  return `${lines.map(escapeControl).join('\n')}\n`;
}

const truncate = (text: string, max = 4000) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** What the terminal shows of a batch: its outcome, without its client IDs. */
type ResultText = Pick<BatchResult, 'status' | 'messageId' | 'code' | 'message' | 'reason'>;

/**
 * A result's texts with the server-given ones' control characters escaped, for the terminal. Only the
 * fields it shows are copied: spreading a result would make its client ID strings (a getter) for nothing.
 */
function inert(result: BatchResult): ResultText {
  const { status, code, message } = result;
  const out: ResultText = { status, code, message };
  if (result.messageId !== undefined) out.messageId = escapeControl(result.messageId);
  if (result.reason !== undefined) out.reason = escapeControl(result.reason);
  return out;
}

/**
 * Why a send did not fully succeed, in one line: the first cause of a batch not accepted (as the summary
 * words it) and how many more, with the service code's hint. A row of several targets carries it, since its
 * summary is not printed whole.
 */
export function failureCause(results: readonly BatchResult[]): { message: string; hint?: string } | undefined {
  const failed = results.filter((r) => r.status !== 'accepted');
  if (failed.length === 0) return undefined;
  const first = inert(failed[0]!);
  const cause = first.code !== undefined ? describeCode(first.code, first.message) : (first.reason ?? first.status);
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more batch${failed.length === 2 ? '' : 'es'} not accepted)` : '';
  const hint = nextStepOf(failed[0]!);
  return { message: `${first.status.replace('_', ' ')}: ${cause}${more}`, ...(hint !== undefined ? { hint } : {}) };
}

/** Everything a finished send reports. */
export interface DeliveryOutcome {
  results: readonly BatchResult[];
  summary: DeliverySummary;
  exitCode: number;
  dryRun: boolean;
  /** More recipients than one request takes: a summary rather than a single verdict. */
  batched: boolean;
  warnings: MessageIssue[];
  notes: MessageIssue[];
  reportPath?: string;
  /** What is left and the one command that sends it. */
  advice?: ResendAdvice;
  /** The command that writes the run's report, when it wrote none. */
  reportCommand?: string;
  audience?: string;
  runId?: string;
  journalPath?: string;
  /**
   * What stopped the run from starting requests: another process that took the run over, a journal that
   * stopped recording (a full disk), or a client-ID input that failed half-way (an invalid line). Why, and what to do.
   */
  stopError?: { message: string; hint?: string };
  /** The run this one resent (`pushctl resend`, or `--once` resuming). */
  resumedFrom?: string;
  /** Stopped by a signal (or by losing its run to another process): the headline counts what went out. */
  interrupted: boolean;
  /** Seconds from the first request to the last answer, for the summary. */
  elapsedSeconds: number;
  /** A message with variants: what each variant came to. */
  variants?: VariantSummary[];
  /**
   * A `--once` re-run that resumed its key's run: what the key's runs delivered together, which its exit status
   * follows (docs/behaviour.md#once); the counts above are this attempt's.
   */
  key?: FamilyOutcome;
}

/**
 * What a key's runs came to together, in a line: the words of `runs show`'s family line, and the exit status
 * a re-run of the key gives, whether it skipped the key or resumed it.
 */
export function keyVerdict(family: Pick<FamilyOutcome, 'run_ids' | 'state'>, exitCode: number): string {
  const runs = family.run_ids.length === 1 ? `run ${family.run_ids[0]!}` : `${family.run_ids.length} runs (${family.run_ids.join(', ')})`;
  return `this key's ${runs} ended ${stateWords(family.state)}${family.run_ids.length === 1 ? '' : ' together'} (exit ${exitCode})`;
}

/** The envelope's `error` of a send that did not fully succeed: the headline, and what to do. */
function deliveryError(outcome: DeliveryOutcome): { message: string; hint?: string } {
  if (outcome.stopError) return outcome.stopError;
  const hints = codeHints(outcome.results);
  const left = outcome.advice && (outcome.audience ? `the message to ${outcome.audience}` : `the ${outcome.advice.notSent} recipient${outcome.advice.notSent === 1 ? '' : 's'} not sent`);
  if (outcome.advice?.command) hints.push(`send ${left} with: ${outcome.advice.command}`);
  if (outcome.advice?.includeInDoubtCommand) hints.push(`${outcome.advice.inDoubt} in doubt (${outcome.dryRun ? 'maybe checked; a dry run delivers nothing' : 'may already have it'}): ${outcome.advice.includeInDoubtCommand}`);
  const single = outcome.results.length === 1 ? outcome.results[0]! : undefined;
  const cause = single && single.status !== 'accepted' ? (single.code !== undefined ? describeCode(single.code, single.message) : single.reason) : undefined;
  const own = cause !== undefined ? `${single!.status.replace('_', ' ')}: ${cause}` : deliveryHeadline(outcome.summary, outcome.results, outcome.dryRun, outcome.interrupted, outcome.audience);
  // A resume fails for what the key's runs left together, which may be more than this attempt left.
  const message = outcome.key ? `${own}; ${keyVerdict(outcome.key, outcome.exitCode)}` : own;
  // One line of clauses: a hint written as a sentence (the service codes' are) loses its full stop in the list.
  return hints.length > 0 ? { message, hint: hints.join('; ') } : { message };
}

/** What this run alone sent: its state, counts, message_ids and languages. */
function attemptDocument(outcome: DeliveryOutcome): AttemptDocument {
  const { results, summary } = outcome;
  return {
    state: closedState(summary, outcome.interrupted, serviceRefused(results)),
    summary,
    message_ids: results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : [])),
    ...(outcome.variants ? { variants: outcome.variants } : {}),
  };
}

/**
 * The `--json` document of a send. A `--once` re-run that resumed its key answers for the key at the top level
 * — state, counts, message_ids and languages of every run of the key, as a skip, a run of several targets and
 * the action's outputs give them, and as its exit status follows — and keeps this attempt's under `attempt`
 * (docs/behaviour.md#once). `batches` are always this run's own requests.
 */
export function deliveryDocument(outcome: DeliveryOutcome): DeliveryDocument {
  const { results, exitCode, dryRun, reportPath, advice, key } = outcome;
  const own = attemptDocument(outcome);
  const top = key ? { state: key.state, summary: key.summary, message_ids: key.message_ids, ...(key.variants ? { variants: key.variants } : {}) } : own;
  return {
    ok: exitCode === 0,
    exit_code: exitCode,
    dry_run: dryRun,
    skipped: false,
    state: top.state,
    message_ids: top.message_ids,
    summary: top.summary,
    batches: results.map(batchLine),
    warnings: outcome.warnings,
    notes: outcome.notes,
    ...(outcome.audience !== undefined ? { audience: outcome.audience } : {}),
    ...(outcome.runId !== undefined ? { run_id: outcome.runId } : {}),
    ...(outcome.journalPath !== undefined ? { journal: outcome.journalPath } : {}),
    ...(outcome.resumedFrom !== undefined ? { resumed_from: outcome.resumedFrom } : {}),
    ...(key ? { run_state: key.state, family_run_ids: key.run_ids, attempt: own } : {}),
    ...(reportPath !== undefined ? { report: reportPath } : {}),
    ...(advice?.command !== undefined ? { resend_command: advice.command } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeInDoubtCommand !== undefined ? { include_in_doubt_command: advice.includeInDoubtCommand } : {}),
    ...(exitCode === 0 ? {} : { error: deliveryError(outcome) }),
    ...(top.variants ? { variants: top.variants } : {}),
  };
}

/** Prints a send's outcome in the chosen mode: `--json`, `--quiet`, or for people (result on stdout, the rest on stderr). */
export function printDelivery(outcome: DeliveryOutcome, mode: { json?: boolean; quiet?: boolean }, io: { stdout: TextSink; stderr: TextSink }, style: Style): void {
  const { results, summary, exitCode, dryRun, reportPath, advice } = outcome;
  if (mode.json) {
    io.stdout.write(`${JSON.stringify(deliveryDocument(outcome), null, 2)}\n`);
    return;
  }
  const messageIds = results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : []));
  if (messageIds.length > 0) io.stdout.write(`${messageIds.map(escapeControl).join('\n')}\n`);
  const batched = outcome.batched || results.length > 1;
  const keyLine = outcome.key ? `${keyVerdict(outcome.key, exitCode)}\n` : '';
  // --quiet keeps what a failure needs (docs/behaviour.md#output): what happened, in the headline's one line or
  // the single request's verdict, then below the error and the one next step; a success says nothing.
  if (!mode.quiet) {
    const verdict = batched ? formatSummary(summary, results, dryRun, style, outcome.interrupted, outcome.elapsedSeconds, outcome.audience) : formatSingle(results[0]!, dryRun, style);
    io.stderr.write(`${verdict}${formatVariants(outcome.variants, style)}${keyLine}`);
  } else if (exitCode !== 0) {
    io.stderr.write(`${batched ? `${deliveryHeadline(summary, results, dryRun, outcome.interrupted, outcome.audience)}\n` : formatSingle(results[0]!, dryRun, style)}${keyLine}`);
  }
  if (outcome.stopError) io.stderr.write(`${style.error('error')}: ${outcome.stopError.message}\n${outcome.stopError.hint ? `hint: ${outcome.stopError.hint}\n` : ''}`);
  if (reportPath !== undefined && !mode.quiet) io.stderr.write(`report: ${reportPath}\n`);
  if (advice) io.stderr.write(formatResendAdvice(advice));
  if (outcome.reportCommand !== undefined && !mode.quiet) io.stderr.write(`a report of every recipient: ${outcome.reportCommand}\n`);
}
