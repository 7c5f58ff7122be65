// `--once <key>` found the run already done: what it sent, and that nothing was sent now.
import type { TextSink } from '../context.js';
import { stateWords, type RunView } from '../journal/read-run.js';
import { overview } from '../journal/run-state.js';
import type { FamilyOutcome } from '../journal/family-outcome.js';
import { escapeControl, onceFlag } from './escape-control.js';
import { keyVerdict } from './delivery.js';
import type { Style } from './style.js';
import { formatVariants } from './variant-lines.js';
import { counted } from '../counted.js';

export interface SkippedRun {
  /** The family's newest run that ended: its verdict stands. */
  run: RunView;
  /** What the whole family (the run found and the resends that continued it) delivered: the answer's counts. */
  family: FamilyOutcome;
  key: string;
  /** `--report`: where the family's report was written. */
  report?: string;
  /** What the run left: recipients (batches, for an audience) in doubt, none certainly unsent. */
  left: { inDoubt: number; audience?: string };
}

/**
 * Why a key found done is no success, in words: the run it found, or every run of its family and the state
 * they came to together, which its exit status follows (docs/behaviour.md#once).
 */
export function skippedVerdict(skipped: SkippedRun, exitCode: number): string {
  const { run, family } = skipped;
  if (family.run_ids.length <= 1) return `run ${run.header.run_id} with this key ended with exit ${exitCode}; nothing was sent now`;
  return `${keyVerdict(family, exitCode)}; nothing was sent now`;
}

export function skippedDocument(skipped: SkippedRun, exitCode: number): object {
  const { run, family } = skipped;
  return {
    ok: exitCode === 0,
    exit_code: exitCode,
    skipped: true,
    state: 'skipped',
    run_state: family.state,
    once: skipped.key,
    run_id: run.header.run_id,
    journal: run.path,
    dry_run: run.header.dry_run,
    ...(family.run_ids.length > 1 ? { family_run_ids: family.run_ids } : {}),
    message_ids: family.message_ids,
    summary: family.summary,
    ...(family.variants ? { variants: family.variants } : {}),
    ...(skipped.report !== undefined ? { report: skipped.report } : {}),
    ...(skipped.left.audience ? { audience: skipped.left.audience } : {}),
    ...(skipped.left.inDoubt > 0 ? { in_doubt: skipped.left.inDoubt } : {}),
    ...(exitCode === 0
      ? {}
      : { error: { message: skippedVerdict(skipped, exitCode), hint: skipped.left.inDoubt > 0 ? 'add --include-in-doubt to send to those in doubt, at the risk of sending twice' : 'what it did not deliver was rejected by the service: fix the cause and send with a new --once key' } }),
  };
}

export function printSkipped(skipped: SkippedRun, exitCode: number, mode: { json?: boolean; quiet?: boolean }, io: { stdout: TextSink; stderr: TextSink }, style: Style): void {
  if (mode.json) {
    io.stdout.write(`${JSON.stringify(skippedDocument(skipped, exitCode), null, 2)}\n`);
    return;
  }
  const { run, family } = skipped;
  const ids = family.message_ids;
  if (ids.length > 0) io.stdout.write(`${ids.map(escapeControl).join('\n')}\n`);
  // --quiet keeps what a failure needs (docs/behaviour.md#output): the verdict's line and the next step.
  if (mode.quiet && exitCode === 0) return;
  // The run's words, the family's counts: what every run of it delivered together.
  const o = { ...overview(run), state: family.state };
  const { batches, recipients } = family.summary;
  const who = o.audience ?? counted(recipients.total, 'recipient');
  const resends = family.run_ids.length > 1 ? `, a family of ${family.run_ids.length} runs: ${family.run_ids.map(escapeControl).join(', ')}` : '';
  // Headed by its state, `skipped`, as --json says it; a run that left recipients in doubt or refused is no
  // success to tick: its exit code and the next step.
  const verdict = exitCode === 0 ? style.ok('✓ skipped, already done') : style.error(`✗ skipped, already ran, not in full (exit ${exitCode})`);
  const head = `${verdict}: ${onceFlag(skipped.key)} matches run ${escapeControl(o.run_id)} (${stateWords(o.state)}, ${escapeControl(o.started_at)}${resends}) to ${who}; nothing was sent now\n`;
  const counts = `  accepted ${o.audience ? `${batches.accepted} of ${counted(batches.total, 'batch')}` : `${recipients.accepted} of ${counted(recipients.total, 'recipient')}`}${recipients.rejected + batches.rejected > 0 ? `, rejected ${o.audience ? batches.rejected : recipients.rejected}` : ''}\n`;
  const next =
    skipped.left.inDoubt > 0
      ? `${counted(skipped.left.inDoubt, o.audience ? 'batch' : 'recipient')} in doubt (the service may already have delivered); add --include-in-doubt to send to them, at the risk of sending twice\n`
      : exitCode !== 0
        ? 'hint: what it did not deliver was rejected by the service: fix the cause and send with a new --once key\n'
        : '';
  if (mode.quiet) {
    io.stderr.write(head + next);
    return;
  }
  const languages = formatVariants(family.variants?.map((v) => ({ ...v, label: escapeControl(v.label) })), style);
  // The languages came before the rejected hint: the in-doubt line stays where it was, the hint after them.
  const inDoubt = skipped.left.inDoubt > 0 ? next : '';
  const hint = skipped.left.inDoubt > 0 ? '' : next;
  io.stderr.write(head + counts + inDoubt + languages + (skipped.report !== undefined ? `report: ${escapeControl(skipped.report)}\n` : '') + hint);
}
