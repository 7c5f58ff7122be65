import { APP_WIDE_STATUSES, describeStatus, SETTING_STATUSES } from './codes.js';
import type { AttemptOutcome } from './outcome.js';
import { notSentAfter } from './stop-reasons.js';

/** Where a batch ended up; the same four words the report uses. */
export type BatchStatus = 'accepted' | 'rejected' | 'in_doubt' | 'not_sent';

export interface BatchResult {
  /** Position of the batch in the run, from 0. */
  index: number;
  /**
   * The batch's client IDs; empty for a message addressed to all devices or by targeting. In results of
   * `sendBatches` this is read from the recipients on each access (a new array each time), so that a run of
   * a million IDs does not keep a million strings alive; see {@link recipientCount} for the number alone.
   */
  clientIds: readonly string[];
  status: BatchStatus;
  /** Requests made for this batch (0 when it was never started). */
  attempts: number;
  /** Set when accepted. */
  messageId?: string;
  /** Set when rejected (and on a batch not sent because of 22001): the service's status code and its text. */
  code?: number;
  message?: string;
  /** Why the batch is in doubt or not sent, in words. */
  reason?: string;
  /** The last attempt's outcome, without its raw response (kept small for big runs). */
  outcome?: AttemptOutcome;
  /**
   * The variant the batch carried (docs/behaviour.md#variants): its language tag, or null for the base
   * message of a message with variants. Absent for a message without variants.
   */
  variant?: string | null;
}

/** What a batch came to, before it is given its place and its client IDs. */
export type Settled = Omit<BatchResult, 'index' | 'clientIds'>;

const recipientCounts = new WeakMap<BatchResult, number>();

/** How many client IDs a batch holds, without making their strings when the result came from `sendBatches`. */
export function recipientCount(result: BatchResult): number {
  return recipientCounts.get(result) ?? result.clientIds.length;
}

/** A result read back without its client IDs (a journal read for its counts): `count` is how many it holds. */
export function withRecipientCount<T extends BatchResult>(result: T, count: number): T {
  if (result.clientIds.length !== count) recipientCounts.set(result, count);
  return result;
}

/**
 * A result whose `clientIds` are read from the recipients on each access. Enumerable, so spreading, JSON and
 * deep equality see the IDs; assigning replaces the getter with the value.
 */
export function batchResult(index: number, ids: () => readonly string[], count: number, settled: Settled): BatchResult {
  const result = { index } as BatchResult;
  Object.defineProperty(result, 'clientIds', {
    enumerable: true,
    configurable: true,
    get: ids,
    set(value: readonly string[]) {
      Object.defineProperty(this, 'clientIds', { value, enumerable: true, configurable: true, writable: true });
      recipientCounts.delete(result);
    },
  });
  recipientCounts.set(result, count);
  return Object.assign(result, settled);
}

/**
 * Turn a batch's last outcome into its final status. `stopped` says why no further attempt was made (a stop,
 * a halted run), `earlierInDoubt` why an earlier attempt may have been delivered (with --retry-in-doubt).
 */
export function settle(attempts: number, last: AttemptOutcome | undefined, stopped: string | undefined, earlierInDoubt: string | undefined): Settled {
  const base = { attempts };
  if (!last) return { ...base, status: 'not_sent', reason: stopped ?? 'not sent' };
  const outcome = withoutResponse(last);
  switch (last.kind) {
    case 'accepted':
      return { ...base, status: 'accepted', messageId: last.messageId, outcome };
    case 'rejected':
      return { ...base, ...refusal(last.code, last.message), outcome };
    case 'in_doubt':
      return { ...base, status: 'in_doubt', reason: last.reason, outcome };
    case 'retryable': {
      // Every attempt was one the service cannot have processed (even a 22001 that outlasted the retries),
      // so nothing was delivered and the IDs belong in the resend list. The code stays for the exit status.
      if (earlierInDoubt !== undefined) {
        return { ...base, status: 'in_doubt', reason: `an earlier attempt may have been delivered (${earlierInDoubt}); last attempt: ${last.reason}`, outcome };
      }
      const reason = notSentAfter(last.reason, attempts, stopped);
      const service = last.code === undefined ? {} : { code: last.code, message: last.message || describeStatus(last.code).meaning };
      return { ...base, status: 'not_sent', reason, ...service, outcome };
    }
  }
}

/**
 * What a service code that refused a batch makes of it. A code that refuses a setting, not the message
 * (21001-21004, 21007: the app's ID, its secret, its push SDK switch; 21006: the client IDs per request), says
 * nothing about what the batch carries: the service delivered nothing, and once the setting is fixed the same
 * recipients go through. So that batch is `not_sent`, as the batches an app's refusal stopped from starting
 * are — the resend the summary advises sends it — and keeps the code for the reasons and the exit status
 * (docs/behaviour.md#retries). Any other code refuses the message: `rejected`. The journal's reader settles a
 * recorded refusal with this too, so a run reads back as it ended.
 */
export function refusal(code: number, message: string): Pick<Settled, 'status' | 'code' | 'message' | 'reason'> {
  if (!SETTING_STATUSES.has(code)) return { status: 'rejected', code, message };
  const fix = APP_WIDE_STATUSES.has(code) ? 'the service refused the app; fix that and resend' : 'the service refused the number of client IDs; resend with a lower --batch-size';
  return { status: 'not_sent', code, message, reason: fix };
}

function withoutResponse(outcome: AttemptOutcome): AttemptOutcome {
  const { response: _response, ...rest } = outcome;
  return rest;
}
