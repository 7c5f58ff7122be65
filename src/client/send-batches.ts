import type { PushMessage } from '../message/types.js';
import { describeStatus, STATUS_RATE_LIMITED } from './codes.js';
import { chunkClientIds, MAX_BATCH_SIZE } from './batches.js';
import type { AttemptOutcome } from './outcome.js';
import type { PushSender } from './push-client.js';
import type { RateLimiter } from './rate-limiter.js';
import { decideRetry, type RetryPolicyOptions } from './retry.js';
import { realSleep, type Sleep } from './sleep.js';

/** Where a batch ended up; the same four words the report uses. */
export type BatchStatus = 'accepted' | 'rejected' | 'unknown' | 'not_sent';

export interface BatchResult {
  /** Position of the batch in the run, from 0. */
  index: number;
  /** The batch's client IDs; empty for a message addressed to all devices or by targeting. */
  clientIds: readonly string[];
  status: BatchStatus;
  /** Requests made for this batch (0 when it was never started). */
  attempts: number;
  /** Set when accepted. */
  messageId?: string;
  /** Set when rejected (and on a batch not sent because of 22001): the service's status code and its text. */
  code?: number;
  message?: string;
  /** Why the batch is unknown or not sent, in words. */
  reason?: string;
  /** The last attempt's outcome, without its raw response (kept small for big runs). */
  outcome?: AttemptOutcome;
}

export interface BatchProgress {
  batchesDone: number;
  batchesTotal: number;
  recipientsDone: number;
  recipientsTotal: number;
  /** Requests made so far, retries included. */
  requests: number;
  last: BatchResult;
}

export interface AttemptEvent {
  batch: number;
  attempt: number;
  body: object;
  outcome: AttemptOutcome;
  /** Present when another attempt will follow after this delay. */
  retryInMs?: number;
}

export interface SendBatchesOptions {
  client: PushSender;
  /** The validated message; its `condition.client_ids`, if any, are replaced per batch. */
  body: PushMessage;
  /** Recipients, already de-duplicated. Absent or empty: one request with `body` as it is. */
  clientIds?: readonly string[];
  batchSize?: number;
  concurrency?: number;
  /** Shared by every batch (and every run sharing the same app); none means no pacing. */
  limiter?: Pick<RateLimiter, 'acquire' | 'slowDown'>;
  retry?: RetryPolicyOptions;
  /** Aborting stops new batches and retries; requests in flight are allowed to finish. */
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /** Every attempt, with its raw response, for `--verbose`. */
  onAttempt?: (event: AttemptEvent) => void;
  sleep?: Sleep;
  random?: () => number;
}

/**
 * Send a message to many recipients: split, pace, retry what is safe to retry, and account for every batch.
 * Never rejects because of the network; every batch comes back with a status, in input order.
 */
export async function sendBatches(options: SendBatchesOptions): Promise<BatchResult[]> {
  const { client, body, limiter, signal, onProgress, onAttempt } = options;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const batches: readonly (readonly string[])[] =
    options.clientIds && options.clientIds.length > 0
      ? chunkClientIds(options.clientIds, options.batchSize ?? MAX_BATCH_SIZE)
      : [[]];
  const results: BatchResult[] = batches.map((clientIds, index) => ({
    index,
    clientIds,
    status: 'not_sent',
    attempts: 0,
    reason: 'interrupted before this batch was sent',
  }));
  const recipientsTotal = options.clientIds?.length ?? 0;
  let next = 0;
  let batchesDone = 0;
  let recipientsDone = 0;
  let requests = 0;

  const bodyFor = (clientIds: readonly string[]): object =>
    clientIds.length === 0
      ? body
      : { ...body, condition: { ...body.condition, type: 2, client_ids: clientIds } };

  const runBatch = async (index: number): Promise<BatchResult> => {
    const clientIds = batches[index]!;
    const batchBody = bodyFor(clientIds);
    let outcome: AttemptOutcome | undefined;
    let attempt = 0;
    let stopped: string | undefined;
    // With --retry-ambiguous, an earlier attempt may have been delivered even if the last one certainly was not.
    let earlierAmbiguous: string | undefined;
    for (;;) {
      try {
        await limiter?.acquire(signal);
      } catch {
        stopped = 'interrupted while waiting for the rate limit';
        break;
      }
      attempt += 1;
      requests += 1;
      // The run's signal is not passed on: cutting a request already on the wire would make it ambiguous.
      if (outcome?.kind === 'ambiguous') earlierAmbiguous = outcome.reason;
      outcome = await client.send(batchBody);
      if (outcome.kind === 'retryable' && outcome.code === STATUS_RATE_LIMITED) limiter?.slowDown();
      const decision = decideRetry(outcome, attempt, random(), options.retry);
      onAttempt?.({ batch: index, attempt, body: batchBody, outcome, ...(decision.retry ? { retryInMs: decision.delayMs } : {}) });
      if (!decision.retry) break;
      if (signal?.aborted) {
        stopped = 'interrupted before a retry';
        break;
      }
      try {
        await sleep(decision.delayMs, signal);
      } catch {
        stopped = 'interrupted before a retry';
        break;
      }
    }
    return settle(index, clientIds, attempt, outcome, stopped, earlierAmbiguous);
  };

  const worker = async (): Promise<void> => {
    while (next < batches.length && !signal?.aborted) {
      const index = next++;
      const result = await runBatch(index);
      results[index] = result;
      batchesDone += 1;
      recipientsDone += result.clientIds.length;
      onProgress?.({ batchesDone, batchesTotal: batches.length, recipientsDone, recipientsTotal, requests, last: result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return results;
}

/** Turn a batch's last outcome into its final status. */
function settle(
  index: number,
  clientIds: readonly string[],
  attempts: number,
  last: AttemptOutcome | undefined,
  stopped: string | undefined,
  earlierAmbiguous: string | undefined,
): BatchResult {
  const base = { index, clientIds, attempts };
  if (!last) return { ...base, status: 'not_sent', reason: stopped ?? 'not sent' };
  const outcome = withoutResponse(last);
  switch (last.kind) {
    case 'accepted':
      return { ...base, status: 'accepted', messageId: last.messageId, outcome };
    case 'rejected':
      return { ...base, status: 'rejected', code: last.code, message: last.message, outcome };
    case 'ambiguous':
      return { ...base, status: 'unknown', reason: last.reason, outcome };
    case 'retryable': {
      // Every attempt was one the service cannot have processed (even a 22001 that outlasted the retries),
      // so nothing was delivered and the IDs belong in the resend list. The code stays for the exit status.
      if (earlierAmbiguous !== undefined) {
        return { ...base, status: 'unknown', reason: `an earlier attempt may have been delivered (${earlierAmbiguous}); last attempt: ${last.reason}`, outcome };
      }
      const reason = stopped
        ? `${stopped}; last attempt: ${last.reason}`
        : `${last.reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
      const service = last.code === undefined ? {} : { code: last.code, message: last.message || describeStatus(last.code).meaning };
      return { ...base, status: 'not_sent', reason, ...service, outcome };
    }
  }
}

function withoutResponse(outcome: AttemptOutcome): AttemptOutcome {
  const { response: _response, ...rest } = outcome;
  return rest;
}
