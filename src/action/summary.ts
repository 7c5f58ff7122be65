// The action's step outputs and job summary, from what the command functions returned. Pure.
import { exitMeaning } from '../errors.js';
import type { DeliverySummary } from '../client/report.js';
import type { VariantCounts, VariantSummary } from '../client/variant-summary.js';
import type { MessageIssue } from '../message/types.js';
import { adviceCount, inDoubtWords, type ResendAdvice } from '../output/resend-advice.js';
import { codeBlock, codeSpan } from '../output/markdown.js';
import { markdownTable, outputEntry } from '../output/workflow-commands.js';
import type { ActionMode } from './inputs.js';
import { inActionTerms } from './terms.js';

/** What one run of the action came to. */
export interface ActionResult {
  /** Absent when the mode input names none the action has. */
  mode?: ActionMode;
  exitCode: number;
  /** `once` found the run already done: nothing was sent. */
  skipped: boolean;
  /** What the run came to, in `pushctl runs`' words (docs/behaviour.md#run-states); absent when nothing ran. */
  state?: string;
  runId?: string;
  messageIds: string[];
  summary?: DeliverySummary;
  /** "all devices" or "condition: …" for a message with no client IDs. */
  audience?: string;
  report?: string;
  once?: string;
  /** The run this one finished (once resuming it). */
  resumedFrom?: string;
  /** Once resuming: what this attempt sent, where `summary` counts the key's whole audience. */
  attempt?: DeliverySummary;
  /** Several targets, once resuming some: each resumed target and the run it found unfinished. */
  resumedTargets?: readonly { profile: string; runId: string }[];
  advice?: ResendAdvice;
  error?: { message: string; hint?: string };
  errors?: readonly MessageIssue[];
  warnings?: readonly MessageIssue[];
  /** mode check: the one-line verdict. */
  checkLine?: string;
  /** Several targets (docs/behaviour.md#targets): a row each. */
  targets?: readonly TargetRow[];
  /** A message with variants (docs/behaviour.md#variants): a row per language (per target, with several). */
  languages?: readonly LanguageRow[];
}

/** One target of a run of several, as the job summary lists it. */
export interface TargetRow {
  profile: string;
  appId: string;
  baseUrl: string;
  runId?: string;
  state: string;
  accepted: string;
  left: number;
}

/** One variant language of the message, as the job summary counts it. */
export interface LanguageRow {
  /** The target it went to, in a run of several. */
  profile?: string;
  /** The language tag, or "base" for the base message. */
  language: string;
  accepted: string;
  left: number;
}

/** `accepted/total` and what is left (not sent or in doubt): the cells of a target's or a language's row. */
export function acceptedAndLeft(counts: VariantCounts): { accepted: string; left: number } {
  return { accepted: `${counts.accepted}/${counts.total}`, left: counts.not_sent + counts.in_doubt };
}

/** A row per variant: its client IDs, or for condition targeting (no IDs to count) its requests, said so. */
export function languageRows(variants: readonly VariantSummary[], profile?: string): LanguageRow[] {
  return variants.map((v) => {
    const cells = v.recipients.total > 0 ? acceptedAndLeft(v.recipients) : requestCells(v.requests);
    return { ...(profile !== undefined ? { profile } : {}), language: v.label, ...cells };
  });
}

function requestCells(requests: VariantCounts): { accepted: string; left: number } {
  const cells = acceptedAndLeft(requests);
  return { ...cells, accepted: `${cells.accepted} ${requests.total === 1 ? 'request' : 'requests'}` };
}

const OUTCOMES = ['accepted', 'rejected', 'in_doubt', 'not_sent'] as const;

/**
 * The client IDs of each outcome, always a number (a workflow can compare it); a message to all devices or by
 * condition has none to count, so its audience is the `audience` output and its outcome the batches'.
 */
function recipientOutputs(result: ActionResult): Record<(typeof OUTCOMES)[number], string> {
  const { summary } = result;
  const out = { accepted: '0', rejected: '0', in_doubt: '0', not_sent: '0' };
  if (!summary) return out;
  for (const o of OUTCOMES) out[o] = String(summary.recipients[o]);
  return out;
}

export function actionOutputs(result: ActionResult, delimiter?: string): string {
  const recipients = recipientOutputs(result);
  return [
    outputEntry('message-ids', JSON.stringify(result.messageIds), delimiter),
    outputEntry('exit-code', String(result.exitCode), delimiter),
    ...OUTCOMES.map((o) => outputEntry(o.replace('_', '-'), recipients[o], delimiter)),
    outputEntry('audience', result.audience ?? '', delimiter),
    outputEntry('report', result.report ?? '', delimiter),
    outputEntry('run-id', result.runId ?? '', delimiter),
    outputEntry('skipped', String(result.skipped), delimiter),
    outputEntry('state', result.state ?? '', delimiter),
  ].join('');
}

/**
 * Text from outside (the service, the message file, the inputs) as an inline code span that nothing inside
 * can end (output/markdown.ts: a fence longer than any backtick run, one line, controls shown as escapes).
 * Inside a code span Markdown and HTML take no effect (`<img>` shows as text).
 */
export const code = codeSpan;

export function jobSummary(result: ActionResult): string {
  const lines = [`## pushctl${result.mode ? ` ${result.mode}` : ''}: ${summaryVerdict(result)}\n\n`];
  if (result.checkLine) lines.push(`${code(result.checkLine)}\n\n`);
  if (result.exitCode !== 0) lines.push(`${exitMeaning(result.exitCode) ?? 'unknown exit status'}${result.error?.message ? `: ${code(result.error.message)}` : ''}\n\n`);
  if (result.error?.hint && result.exitCode !== 0) lines.push(`Next step: ${code(result.error.hint)}\n\n`);
  if (result.skipped) lines.push(`Input \`once\` ${code(result.once ?? '')} matches run ${code(result.runId ?? '')}, which already ran: this re-run sent nothing.${result.summary ? ' The table counts every run of the key.' : ''}\n\n`);
  if (result.resumedFrom) lines.push(`Input \`once\` found run ${code(result.resumedFrom)} unfinished: ${result.attempt ? attemptWords(result.attempt, result.audience !== undefined) : 'this run sent what it had left.'}\n\n`);
  if (result.resumedTargets) {
    const found = result.resumedTargets.map((t) => `${code(t.profile)} (run ${code(t.runId)})`).join(', ');
    lines.push(`Input \`once\` found the key's runs unfinished for ${found}: ${result.attempt ? attemptWords(result.attempt, result.audience !== undefined) : 'this run sent what they had left.'}\n\n`);
  }
  if (result.targets) {
    lines.push(markdownTable(['profile', 'app', 'destination', 'run', 'state', 'accepted', 'left'], result.targets.map((t) => [code(t.profile), code(t.appId), code(t.baseUrl), code(t.runId ?? '-'), t.state, t.accepted, t.left])), '\n');
  }
  if (result.summary) {
    const { batches } = result.summary;
    const recipients = recipientOutputs(result);
    const audience = result.audience;
    lines.push(markdownTable(['outcome', 'batches', audience ? 'audience' : 'recipients'], OUTCOMES.map((o) => [o.replace('_', ' '), batches[o], audience ? (batches[o] > 0 ? audience : '0') : recipients[o]])), '\n');
  }
  if (result.languages && result.languages.length > 0) {
    const several = result.languages.some((row) => row.profile !== undefined);
    const header = [...(several ? ['profile'] : []), 'language', 'accepted', 'left'];
    lines.push(markdownTable(header, result.languages.map((row) => [...(several ? [code(row.profile ?? '')] : []), code(row.language), row.accepted, row.left])), '\n');
  }
  const findings = [...(result.errors ?? []).map((e) => ['error', e] as const), ...(result.warnings ?? []).map((w) => ['warning', w] as const)];
  // Each with its fix, as the annotation at the file gives it: the summary is what a reader of the run sees first.
  if (findings.length > 0) lines.push(markdownTable(['', 'field', 'problem', 'fix'], findings.map(([level, e]) => [level, code(e.path || '(message)'), code(inActionTerms(e.message)), e.fix ? code(inActionTerms(e.fix)) : ''])), '\n');
  if (result.messageIds.length > 0) lines.push(`**message_ids:** ${result.messageIds.map(code).join(', ')}\n\n`);
  if (result.report) lines.push(`**report:** ${code(result.report)}\n\n`);
  if (result.advice) lines.push(resendAdviceMarkdown(result));
  return lines.join('');
}

/**
 * The heading's verdict: a run's state in the words of the `state` output and `pushctl runs`
 * (docs/behaviour.md#run-states), so the summary never names the outcome another way; a step that ran no
 * send (validate, check, an input refused) says whether it succeeded.
 */
function summaryVerdict(result: ActionResult): string {
  const exit = result.exitCode === 0 ? '' : ` (exit ${result.exitCode})`;
  if (result.skipped) return `skipped${exit}: ${result.exitCode === 0 ? 'already done' : 'already ran'}, nothing sent now`;
  if (result.state) return `${result.state}${exit}`;
  return result.exitCode === 0 ? 'succeeded' : `failed${exit}`;
}

/** What a resuming attempt sent, apart from the table, which counts every run of the once key. */
function attemptWords(attempt: DeliverySummary, byAudience: boolean): string {
  const counts = byAudience ? attempt.batches : attempt.recipients;
  const unit = byAudience ? (counts.total === 1 ? 'request' : 'requests') : counts.total === 1 ? 'recipient' : 'recipients';
  const outcomes = OUTCOMES.filter((o) => counts[o] > 0).map((o) => `${counts[o]} ${o.replace('_', ' ')}`);
  return `this run sent the ${counts.total} ${unit} it had left: ${outcomes.join(', ') || 'none'}. The table counts every run of the key.`;
}

/** What is left, in the action's terms: re-run the job (with `once` and the cached journal directory), or resend the run. */
function resendAdviceMarkdown(result: ActionResult): string {
  const { advice } = result;
  if (!advice) return '';
  const unit = (n: number) => adviceCount(advice, n);
  const out: string[] = [];
  if (advice.command) {
    const left = unit(advice.notSent);
    out.push(
      `${left[0]!.toUpperCase()}${left.slice(1)} not sent. ${result.once ? 'Re-run this job: with the same `once` input and the journal directory restored from the cache, it sends exactly those.' : 'Set the `once` input (and cache `journal-dir`) so that re-running this job sends exactly those.'} From a machine that has the journal directory:\n\n${codeBlock(advice.command, 'sh')}\n`,
    );
  }
  if (advice.includeInDoubtCommand) {
    const words = inDoubtWords(advice);
    out.push(`${unit(advice.inDoubt)} in doubt: ${words.maybe}. To include ${advice.unit === 'recipients' ? 'them' : 'it'}, ${words.risk}:\n\n${codeBlock(advice.includeInDoubtCommand, 'sh')}\n`);
  }
  return out.join('');
}
