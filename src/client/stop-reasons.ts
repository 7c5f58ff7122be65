// Why a batch was not sent, in the words every account of a run uses: the send's summary and report as the run
// ends, and `runs show`, its report and `resend` as the journal reads back (docs/behaviour.md#journal, "Read
// back the same way everywhere"). Pure: the sender and the journal's reader both build their reasons here.
import { APP_WIDE_STATUSES, describeStatus } from './codes.js';

/**
 * What a reason is read from: a batch's outcome and the service's code. A shape of its own, not batch-result.ts's
 * BatchResult: that module builds its reasons here, and the two would import each other.
 */
interface Settled {
  status: string;
  code?: number | undefined;
}

/** A batch a stop (a signal, a cancelled job) kept from its first request. */
export const INTERRUPTED_BEFORE_START = 'interrupted before this batch was sent';
/** A batch a stop kept from the retry it was waiting for. */
export const INTERRUPTED_BEFORE_RETRY = 'interrupted before a retry';

/** When the service refuses the app itself, the remaining batches would only be refused the same way: why the run halts. */
export function appRefusal(result: Settled): string | undefined {
  // Such a batch is not_sent with the code (batch-result.ts, refusal): the code, not the status, says so.
  if (result.status === 'accepted' || result.code === undefined || !APP_WIDE_STATUSES.has(result.code)) return undefined;
  return `the service refused the app (${result.code} ${describeStatus(result.code).meaning}); fix that and resend`;
}

/** A batch whose every attempt was certainly not processed: its last answer, and why no further attempt was made. */
export function notSentAfter(lastReason: string, attempts: number, stopped: string | undefined): string {
  return stopped !== undefined ? `${stopped}; last attempt: ${lastReason}` : `${lastReason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
}

/**
 * Why the batches a run left unfinished were stopped, as the journal's reader tells it from the outcomes and
 * the closing record: an app's refusal halts the run first (as the sender's `halted` does), then a signal.
 * A run with neither (killed, or still sending: the reader cannot tell) is given only the facts.
 */
export function stopReasons(results: readonly Settled[], interrupted: boolean): { beforeStart: string; beforeRetry: string } {
  const halted = results.map(appRefusal).find((reason) => reason !== undefined);
  return {
    beforeStart: halted ?? (interrupted ? INTERRUPTED_BEFORE_START : 'never started'),
    beforeRetry: halted ?? (interrupted ? INTERRUPTED_BEFORE_RETRY : 'a retry was due and none was recorded'),
  };
}
