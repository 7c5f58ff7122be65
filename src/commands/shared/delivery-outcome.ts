// A delivery in output/'s terms. Apart from deliver.ts, which its commands load only when they send.
import type { MessageIssue } from '../../message/types.js';
import type { DeliveryOutcome } from '../../output/delivery.js';
import type { Delivery } from './deliver.js';

/** A delivery in output/'s terms, with what the command knows beside it. */
export function asDeliveryOutcome(delivery: Delivery, extra: { batched: boolean; warnings: MessageIssue[]; notes: MessageIssue[]; resumedFrom?: string }): DeliveryOutcome {
  const failure = delivery.journalFailure;
  const stopped = failure ? { message: failure.message, ...(failure.hint ? { hint: failure.hint } : {}) } : delivery.inputFailure;
  return { ...delivery, ...extra, ...(stopped ? { stopError: stopped } : {}) };
}
