// How `pushctl check` answers: the settings table, then one line saying whether the service accepted the
// credentials; or one JSON envelope.
import type { ConfigReport } from './config-report.js';
import { formatConfigReport } from './config-report.js';
import { envelopeText, snakeKeys } from './envelope.js';
import type { TextSink } from '../context.js';
import type { ExitCode } from '../errors.js';

/** What `pushctl check` found (the action's `mode: check` reads the same object). */
export interface CheckOutcome {
  ok: boolean;
  /** docs/behaviour.md#exit-codes: 0 accepted, 4 rejected by the service, 5 network, 6 settings or credentials missing. */
  exitCode: ExitCode;
  /** Where each setting came from; absent when the settings could not be loaded at all (a broken config file). */
  settings?: ConfigReport;
  /** The request made, when one was: the app ID and the push URL's host. */
  probe?: { appId: string; host: string; dryRun: true; clientId: string };
  /** The service's answer, when there was one: its status code, meaning and message_id (for a dry run). */
  answer?: { code: number; meaning: string; message?: string; messageId?: string };
  /** The one line a person reads: the verdict. */
  line: string;
  /** On failure: what went wrong and the next step. */
  error?: { message: string; hint?: string };
}

/** The human answer: the settings table on stdout, then the verdict (stdout when good, stderr when not). */
export function formatCheck(outcome: CheckOutcome): { stdout: string; stderr: string } {
  const table = outcome.settings ? formatConfigReport(outcome.settings) : '';
  const warnings = (outcome.settings?.warnings ?? []).map((w) => `warning: ${w}\n`).join('');
  if (outcome.ok) return { stdout: `${table}\n✓ ${outcome.line}\n`, stderr: warnings };
  const hint = outcome.error?.hint ? `hint: ${outcome.error.hint}\n` : '';
  return { stdout: table, stderr: `${warnings}error: ${outcome.line}\n${hint}` };
}

/** The `--json` envelope: `ok`, `exit_code`, then the outcome in snake_case. */
export function checkJson(outcome: CheckOutcome): string {
  const { ok: _ok, exitCode, ...rest } = outcome;
  return envelopeText(exitCode, snakeKeys(rest) as object);
}

/** The answer on stdout and stderr; or, with --json, one JSON document. */
export function printCheck(outcome: CheckOutcome, options: { json?: boolean | undefined }, ctx: { stdout: TextSink; stderr: TextSink }): void {
  if (options.json) {
    ctx.stdout.write(checkJson(outcome));
    return;
  }
  const text = formatCheck(outcome);
  ctx.stdout.write(text.stdout);
  ctx.stderr.write(text.stderr);
}
