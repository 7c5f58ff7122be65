// How a run of several targets reads (docs/behaviour.md#targets): one row per target, one verdict, one
// command for what is left. Pure formatters from the targets' results to text or the `--json` document.
import type { VariantSummary } from '../client/variant-summary.js';
import { formatVariants } from './variant-lines.js';
import type { TextSink } from '../context.js';
import { serviceRefused, sumSummaries, type DeliverySummary } from '../client/report.js';
import { ExitCode } from '../errors.js';
import { closedState, stateWords, type RunState } from '../journal/read-run.js';
import { failureCause, keyVerdict, type DeliveryOutcome } from './delivery.js';
import type { MessageIssue } from '../message/types.js';
import { escapeControl } from './escape-control.js';
import { adviceCount, formatResendAdvice, type ResendAdvice } from './resend-advice.js';
import type { Style } from './style.js';

/** One target's part of the run: where it went, the run that sent it (or that --once found done), what it came to. */
export interface TargetResult {
  profile: string;
  appId: string;
  baseUrl: string;
  /** The run that sent now; for a target --once found done, that earlier run. Absent with --no-journal. */
  runId?: string;
  journalPath?: string;
  /** `skipped`: --once found this target's run done, and nothing was sent to it now. */
  state: RunState | 'skipped';
  exitCode: number;
  summary: DeliverySummary;
  messageIds: string[];
  resumedFrom?: string;
  /** "all devices" or "condition: …" for a message with no client IDs. */
  audience?: string;
  /** What stopped this target (a journal that could not be written, an owner that took over), or why it failed. */
  error?: { message: string; hint?: string };
  /** A message with variants: what each variant came to at this target (docs/behaviour.md#variants). */
  variants?: VariantSummary[];
}

/** A target's row from its delivery: the same outcome a single-target send prints whole. */
export function deliveredRow(where: Pick<TargetResult, 'profile' | 'appId' | 'baseUrl'>, delivery: DeliveryOutcome): TargetResult {
  // Why it failed, under the table: the target's own summary, with its causes, is not printed.
  // A resumed target answers for its key (commands/shared/key-outcome.ts): its state and exit status are the
  // key's, and when this attempt delivered all it sent, the key's verdict is the cause.
  const cause = delivery.exitCode === ExitCode.ok ? undefined : (failureCause(delivery.results) ?? (delivery.key && { message: keyVerdict(delivery.key, delivery.exitCode) }));
  return {
    ...where,
    ...(delivery.runId !== undefined ? { runId: delivery.runId } : {}),
    ...(delivery.journalPath !== undefined ? { journalPath: delivery.journalPath } : {}),
    state: delivery.key?.state ?? closedState(delivery.summary, delivery.interrupted, serviceRefused(delivery.results)),
    exitCode: delivery.exitCode,
    summary: delivery.summary,
    messageIds: delivery.results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : [])),
    ...(delivery.resumedFrom !== undefined ? { resumedFrom: delivery.resumedFrom } : {}),
    ...(delivery.audience ? { audience: delivery.audience } : {}),
    ...(delivery.variants ? { variants: delivery.variants } : {}),
    ...(delivery.stopError ? { error: delivery.stopError } : cause ? { error: cause } : {}),
  };
}

export interface TargetsOutcome {
  exitCode: number;
  dryRun: boolean;
  /** The family's id (its first target's run id): what `runs`, `runs show` and `resend` take. */
  family?: string;
  targets: TargetResult[];
  warnings: MessageIssue[];
  notes: MessageIssue[];
  /** What is left over all targets, and the one command that sends it (`pushctl resend <family>`). */
  advice?: ResendAdvice;
  /**
   * A `--once` re-run that resumed some target: what every run of the key delivered, over all targets (a
   * target found done counts its runs already, one resumed now is read from its journals): the top level of
   * `--json` counts this, never one target's runs added to another's last attempt.
   */
  key?: { summary: DeliverySummary; messageIds: string[]; state: RunState; attempt?: DeliverySummary };
}

/**
 * What a run of several targets came to, in the run states' words (docs/behaviour.md#run-states): the key's
 * state when a `--once` re-run resumed some target; `skipped` when every target was found done; else `sent`
 * when every target succeeded, `partly sent` when some did, or the first failed target's own. The `--json`
 * document and the action's `state` output both read it.
 */
export function targetsState(targets: readonly TargetResult[], exitCode: number, keyState?: RunState): RunState | 'skipped' {
  if (keyState !== undefined) return keyState;
  if (targets.every((t) => t.state === 'skipped')) return 'skipped';
  if (exitCode === ExitCode.ok) return 'sent';
  const failed = targets.filter((t) => t.exitCode !== ExitCode.ok);
  return failed.length < targets.length ? 'partly_sent' : failed[0]!.state;
}

/**
 * The exit status of several targets (docs/behaviour.md#exit-codes): 0 when every target succeeded, 7 when
 * some delivered (a target that succeeded or partly did) and some did not; when none delivered anything, the
 * first failed target's own code.
 */
export function targetsExitCode(codes: readonly number[]): number {
  if (codes.every((code) => code === ExitCode.ok)) return ExitCode.ok;
  if (codes.some((code) => code === ExitCode.ok || code === ExitCode.partial)) return ExitCode.partial;
  return codes.find((code) => code !== ExitCode.ok)!;
}

/**
 * What a target's accepted column says: `3/3`, or for a message without client IDs `all of it` or `none`;
 * one sent in several requests (variants to a condition) and accepted in part counts them, `1/3 requests`.
 */
export function acceptedCell(target: Pick<TargetResult, 'summary' | 'audience'>): string {
  const { batches, recipients } = target.summary;
  if (target.audience) {
    if (batches.accepted === batches.total && batches.total > 0) return 'all of it';
    return batches.accepted === 0 ? 'none' : `${batches.accepted}/${batches.total} requests`;
  }
  return `${recipients.accepted}/${recipients.total}`;
}

function leftCell(target: TargetResult): string {
  const counts = target.audience ? target.summary.batches : target.summary.recipients;
  const left = counts.not_sent + counts.in_doubt;
  return left === 0 ? '-' : String(left);
}

/**
 * The run's headline, led by its state as `runs` lists the family and --json's `state` says it
 * (docs/behaviour.md#run-states): the table's first line, and --json's error when a target did not succeed.
 */
function targetsHeadline(outcome: TargetsOutcome): string {
  const ok = outcome.targets.filter((t) => t.exitCode === ExitCode.ok).length;
  const n = outcome.targets.length;
  const skipped = outcome.targets.filter((t) => t.state === 'skipped').length;
  const word = `${stateWords(targetsState(outcome.targets, outcome.exitCode, outcome.key?.state))}${outcome.dryRun ? ' (dry run)' : ''}`;
  const found = skipped === n ? "--once found every target's run already done; nothing was sent now" : undefined;
  const detail = ok === n ? (found ?? `${n} targets${skipped > 0 ? ` (${skipped} already done)` : ''}`) : `${ok} of ${n} targets in full${found ? `; ${found}` : ''}`;
  return `${word}: ${detail}`;
}

/** The table: a row per target. Everything in it that a journal or a config file gave is escaped. */
export function formatTargetsTable(outcome: TargetsOutcome, style: Style): string {
  const rows = [
    ['PROFILE', 'APP', 'DESTINATION', 'RUN', 'STATE', 'ACCEPTED', 'LEFT'],
    ...outcome.targets.map((t) => [t.profile, t.appId, t.baseUrl, t.runId ?? '-', stateWords(t.state), acceptedCell(t), leftCell(t)].map(escapeControl)),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}`);
  const head = outcome.targets.every((t) => t.exitCode === ExitCode.ok) ? style.ok(`✓ ${targetsHeadline(outcome)}`) : style.error(`✗ ${targetsHeadline(outcome)}`);
  const family = outcome.family !== undefined ? ` (run ${escapeControl(outcome.family)})` : '';
  const errors = outcome.targets.flatMap((t) => (t.error ? [`  ${escapeControl(t.profile)}: ${escapeControl(t.error.message)}${t.error.hint ? ` (${escapeControl(t.error.hint)})` : ''}\n`] : []));
  return `${head}${family}\n${lines.join('\n')}\n${errors.join('')}`;
}

/** The `--json` document of a run of several targets. */
export function targetsDocument(outcome: TargetsOutcome): object {
  const { exitCode, advice } = outcome;
  const failed = outcome.targets.filter((t) => t.exitCode !== ExitCode.ok).map((t) => t.profile);
  return {
    ok: exitCode === ExitCode.ok,
    exit_code: exitCode,
    dry_run: outcome.dryRun,
    skipped: outcome.targets.every((t) => t.state === 'skipped'),
    // The top level answers for the key, as a single target's document does; this attempt's counts are `attempt`.
    state: targetsState(outcome.targets, exitCode, outcome.key?.state),
    ...(outcome.family !== undefined ? { run_id: outcome.family } : {}),
    message_ids: outcome.key?.messageIds ?? outcome.targets.flatMap((t) => t.messageIds),
    summary: outcome.key?.summary ?? sumSummaries(outcome.targets.map((t) => t.summary)),
    ...(outcome.key?.attempt ? { attempt: { summary: outcome.key.attempt } } : {}),
    targets: outcome.targets.map((t) => ({
      profile: t.profile,
      app_id: t.appId,
      base_url: t.baseUrl,
      ...(t.runId !== undefined ? { run_id: t.runId } : {}),
      ...(t.journalPath !== undefined ? { journal: t.journalPath } : {}),
      state: t.state,
      exit_code: t.exitCode,
      skipped: t.state === 'skipped',
      summary: t.summary,
      message_ids: t.messageIds,
      ...(t.audience !== undefined ? { audience: t.audience } : {}),
      ...(t.resumedFrom !== undefined ? { resumed_from: t.resumedFrom } : {}),
      ...(t.error ? { error: t.error } : {}),
      ...(t.variants ? { variants: t.variants } : {}),
    })),
    warnings: outcome.warnings,
    notes: outcome.notes,
    ...(advice?.command !== undefined ? { resend_command: advice.command } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeInDoubtCommand !== undefined ? { include_in_doubt_command: advice.includeInDoubtCommand } : {}),
    ...(exitCode === ExitCode.ok ? {} : { error: { message: `${targetsHeadline(outcome)}${failed.length > 0 ? `; not in full: ${failed.join(', ')}` : ''}`, ...nextStep(outcome) } }),
  };
}

/**
 * The run's next step: the resend of what is left, else the one that includes those in doubt, else (nothing
 * to resend: a target refused outright) the first failed target's own hint, named by its profile. A target the
 * service refused (exit 4: its app, say, whose batches a resend sends once it is fixed) gives its hint first.
 */
function nextStep({ advice, targets }: TargetsOutcome): { hint?: string } {
  const failed = targets.find((t) => t.exitCode !== ExitCode.ok && t.error?.hint !== undefined);
  const cause = failed ? `${failed.profile}: ${failed.error!.hint!}` : undefined;
  if (advice?.command) return { hint: `${failed?.exitCode === ExitCode.rejected ? `${cause!}; then ` : ''}send what is left with: ${advice.command}` };
  if (advice?.includeInDoubtCommand) return { hint: `nothing is certainly unsent; ${adviceCount(advice, advice.inDoubt)} in doubt, which may already have it: ${advice.includeInDoubtCommand}` };
  return cause !== undefined ? { hint: cause } : {};
}

/** Prints the outcome: `--json`, `--quiet` (the message_ids only), or for people (message_ids on stdout, the table on stderr). */
export function printTargets(outcome: TargetsOutcome, mode: { json?: boolean; quiet?: boolean }, io: { stdout: TextSink; stderr: TextSink }, style: Style): void {
  if (mode.json) {
    io.stdout.write(`${JSON.stringify(targetsDocument(outcome), null, 2)}\n`);
    return;
  }
  const ids = outcome.targets.flatMap((t) => t.messageIds);
  if (ids.length > 0) io.stdout.write(`${ids.map(escapeControl).join('\n')}\n`);
  if (!mode.quiet || outcome.exitCode !== ExitCode.ok) io.stderr.write(formatTargetsTable(outcome, style));
  if (!mode.quiet) for (const t of outcome.targets) if (t.variants) io.stderr.write(`${escapeControl(t.profile)} ${formatVariants(t.variants, style)}`);
  if (outcome.advice) io.stderr.write(formatResendAdvice(outcome.advice));
}
