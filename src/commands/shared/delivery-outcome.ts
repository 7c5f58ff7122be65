// A delivery in output/'s terms. Apart from deliver.ts, which its commands load only when they send.
import type { CliError } from '../../errors.js';
import type { MessageIssue } from '../../message/types.js';
import type { DeliveryOutcome } from '../../output/delivery.js';
import type { Delivery } from './deliver.js';

/**
 * A delivery in output/'s terms, with what the command knows beside it, and its exit code: the run's, or
 * that of the error that stopped it (a journal that stopped recording, an input that failed half-way, a
 * lease another process took over), which the printer shows as the run's error.
 */
export function deliveredOutcome(delivery: Delivery, extra: { batched: boolean; warnings: MessageIssue[]; notes: MessageIssue[]; resumedFrom?: string }, lost?: CliError): { exitCode: number; delivery: DeliveryOutcome } {
  const failure = lost ?? delivery.journalFailure;
  const stopped = failure ? { message: failure.message, ...(failure.hint ? { hint: failure.hint } : {}) } : delivery.inputFailure;
  const exitCode = lost?.exitCode ?? delivery.exitCode;
  return { exitCode, delivery: { ...delivery, ...extra, exitCode, ...(stopped ? { stopError: stopped } : {}) } };
}
