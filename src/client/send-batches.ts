import { setMaxListeners } from 'node:events';
import type { PushMessage } from '../message/types.js';
import { APP_WIDE_STATUSES, describeStatus, STATUS_RATE_LIMITED } from './codes.js';
import type { ClientIdSource } from '../message/recipients.js';
import { BatchPlan, MAX_BATCH_SIZE } from './batches.js';
import type { AttemptOutcome } from './outcome.js';
import type { PushSender } from './push-client.js';
import { decideRetry, type RetryPolicyOptions } from './retry.js';
import { InFlight } from './in-flight.js';
import { monotonicNow, realSleep, type Sleep } from './sleep.js';

/** Where a batch ended up; the same four words the report uses. */
export type BatchStatus = 'accepted' | 'rejected' | 'unknown' | 'not_sent';

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
  /** Why the batch is unknown or not sent, in words. */
  reason?: string;
  /** The last attempt's outcome, without its raw response (kept small for big runs). */
  outcome?: AttemptOutcome;
}

export interface BatchProgress {
  batchesDone: number;
  /** Batches planned so far: the total once `planComplete`. */
  batchesTotal: number;
  /** Whether every recipient has been read (false while a plan still grows). */
  planComplete: boolean;
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

/** What sendBatches needs of a rate limiter (a RateLimiter, or a test's stand-in). */
export interface Pacer {
  /** Resolves when a request may start, with its start time. */
  acquire(signal?: AbortSignal): Promise<number | void>;
  /** A 22001 answer to the request that started at `startedAt`. */
  slowDown(startedAt?: number): void;
  /** The request that started at `startedAt` actually left (was written) at `at`. */
  departed?(startedAt: number, at: number): void;
  /** Requests per second at the fastest, to size the number in flight; absent or 0: a fixed number. */
  readonly peakRate?: number;
}

export interface SendBatchesOptions {
  client: PushSender;
  /** The validated message; its `condition.client_ids`, if any, are replaced per batch. */
  body: PushMessage;
  /**
   * Recipients, already de-duplicated: an array, or a ClientIdStore (anything with `length` and `slice`).
   * Each batch's IDs are sliced out when it is sent. Absent or empty: one request with `body` as it is.
   */
  clientIds?: ClientIdSource;
  batchSize?: number;
  /**
   * The batches, when they are planned as the recipients are read (a growing `clientIds`): each is sent once
   * it is in the plan, and the run ends when the plan is complete or stopped. Default: every batch of
   * `clientIds` as it is now.
   */
  plan?: BatchPlan;
  /**
   * The most requests in flight at once. With a limiter that tells its pace, fewer are used while answers
   * are quick: as many as the pace times the observed latency needs (Little's law), up to this cap (default
   * {@link MAX_CONCURRENCY}). Without one (no rate limit), exactly this many (default 8).
   */
  concurrency?: number;
  /** Shared by every batch (and every run sharing the same app); none means no pacing. */
  limiter?: Pacer;
  retry?: RetryPolicyOptions;
  /** Aborting stops new batches and retries; requests in flight are allowed to finish. */
  signal?: AbortSignal;
  /**
   * Aborting stops at once: requests in flight are cut and become unknown (or not sent, when their first
   * byte had not left). For a second Ctrl-C, after `signal`.
   */
  stopNow?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /**
   * Called just before an attempt's request is made, synchronously: what it records is on disk before the
   * first byte leaves (the journal). If it throws, that request is not made and no further one starts:
   * the remaining batches come back not sent, with the error's message as their reason.
   */
  onAttemptStart?: (batch: number, attempt: number) => void;
  /** Every attempt, with its raw response, for `--verbose` and the journal. */
  onAttempt?: (event: AttemptEvent) => void;
  sleep?: Sleep;
  /** A monotonic clock in ms, for the latencies that size the concurrency. */
  now?: () => number;
  random?: () => number;
}

/** Requests in flight at most when the concurrency follows the latency and no `concurrency` caps it. */
export const MAX_CONCURRENCY = 256;
/** Requests in flight without a rate limit to size them by (and the old fixed default). */
export const DEFAULT_CONCURRENCY = 8;

/**
 * Send a message to many recipients: split, pace, retry what is safe to retry, and account for every batch.
 * Never rejects because of the network; every batch comes back with a status, in input order.
 */
export async function sendBatches(options: SendBatchesOptions): Promise<BatchResult[]> {
  const { client, body, limiter, signal, onProgress, onAttempt } = options;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? monotonicNow;
  const random = options.random ?? Math.random;
  const explicit = options.concurrency === undefined ? undefined : Math.max(1, Math.floor(options.concurrency));
  const pace = limiter?.peakRate === undefined ? undefined : () => limiter.peakRate ?? 0;
  const inFlight = new InFlight({ cap: explicit ?? MAX_CONCURRENCY, unpaced: explicit ?? DEFAULT_CONCURRENCY, ...(pace ? { pace } : {}) });
  // A growing plan reads its recipients as they come, so an empty list now is not a message without any.
  const source = options.clientIds && (options.plan || options.clientIds.length > 0) ? options.clientIds : undefined;
  const plan = options.plan ?? BatchPlan.of(source?.length ?? 0, options.batchSize ?? MAX_BATCH_SIZE);
  const batches = plan.ranges;
  const idsOf = (index: number): (() => readonly string[]) => {
    const [start, end] = batches[index]!;
    return source && end > start ? () => source.slice(start, end) : () => [];
  };
  // Filled as batches end; a batch never started is filled in at the end.
  const results: BatchResult[] = [];
  const recipientsTotal = (): number => (plan.complete ? plan.recipients : Math.max(plan.recipients, options.clientIds?.length ?? 0));
  let next = 0;
  let batchesDone = 0;
  let recipientsDone = 0;
  let requests = 0;
  // Set when the service refuses the app itself: the remaining batches would only be refused the same way.
  let halted: string | undefined;
  let failure: { error: unknown } | undefined;
  let backingOff = 0;
  // The dispatcher below waits for something to change: a batch done or started, a stop, or time passing
  // (the oldest request's age alone can raise the limit).
  let wake: (() => void) | undefined;
  const changed = (): void => {
    const go = wake;
    wake = undefined;
    go?.();
  };
  const settledOrRisen = async (at: number | undefined, t: number): Promise<void> => {
    const timer = new AbortController();
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waits: Promise<unknown>[] = [woken];
    if (at !== undefined) waits.push(sleep(at - t, timer.signal).catch(() => undefined));
    await Promise.race(waits);
    wake = undefined;
    timer.abort();
  };

  const bodyFor = (clientIds: readonly string[]): object =>
    clientIds.length === 0
      ? body
      : { ...body, condition: { ...body.condition, type: 2, client_ids: clientIds } };

  const runBatch = async (index: number): Promise<BatchResult> => {
    const ids = idsOf(index);
    const [start, end] = batches[index]!;
    // The batch's strings exist only while it is being sent (and in `onAttempt` events).
    const batchBody = bodyFor(ids());
    let outcome: AttemptOutcome | undefined;
    let attempt = 0;
    let stopped: string | undefined;
    // With --retry-ambiguous, an earlier attempt may have been delivered even if the last one certainly was not.
    let earlierAmbiguous: string | undefined;
    for (;;) {
      let startedAt: number | void;
      try {
        startedAt = await limiter?.acquire(signal);
      } catch {
        stopped = 'interrupted while waiting for the rate limit';
        break;
      }
      if (halted !== undefined) {
        stopped = halted;
        break;
      }
      // What onAttemptStart records (the journal) must be on disk before the first byte leaves: if it cannot
      // be, this request and every later one stay unsent (docs/behaviour.md#journal).
      try {
        options.onAttemptStart?.(index, attempt + 1);
      } catch (error) {
        halted ??= error instanceof Error ? error.message : String(error);
        stopped = halted;
        break;
      }
      attempt += 1;
      requests += 1;
      // The run's signal is not passed on: cutting a request already on the wire would make it ambiguous.
      // Only a stop-now does that, on purpose.
      if (outcome?.kind === 'ambiguous') earlierAmbiguous = outcome.reason;
      const token = inFlight.started(now());
      changed();
      try {
        const departed = typeof startedAt === 'number' && limiter?.departed ? () => limiter.departed!(startedAt as number, now()) : undefined;
        outcome = await sendOnce(client, batchBody, options.stopNow, departed);
      } finally {
        inFlight.finished(token, now());
      }
      if (outcome.kind === 'retryable' && outcome.code === STATUS_RATE_LIMITED) limiter?.slowDown(startedAt ?? undefined);
      const decision = decideRetry(outcome, attempt, random(), options.retry);
      onAttempt?.({ batch: index, attempt, body: batchBody, outcome, ...(decision.retry ? { retryInMs: decision.delayMs } : {}) });
      if (!decision.retry) break;
      if (signal?.aborted) {
        stopped = 'interrupted before a retry';
        break;
      }
      // A batch waiting to retry is no request in flight: it does not hold back the others.
      backingOff += 1;
      changed();
      try {
        await sleep(decision.delayMs, signal);
      } catch {
        stopped = 'interrupted before a retry';
        break;
      } finally {
        backingOff -= 1;
      }
    }
    return batchResult(index, ids, end - start, settle(attempt, outcome, stopped, earlierAmbiguous));
  };

  const finish = (index: number, result: BatchResult): void => {
    results[index] = result;
    if (result.status === 'rejected' && result.code !== undefined && APP_WIDE_STATUSES.has(result.code)) {
      halted ??= `the service refused the app (${result.code} ${describeStatus(result.code).meaning}); fix that and resend`;
    }
    batchesDone += 1;
    recipientsDone += recipientCount(result);
    onProgress?.({ batchesDone, batchesTotal: batches.length, planComplete: plan.complete, recipientsDone, recipientsTotal: recipientsTotal(), requests, last: result });
  };

  // Batches start in order, each as soon as the rate limiter and the number in flight allow.
  const running = new Set<Promise<void>>();
  const stopping = () => signal?.aborted === true || options.stopNow?.aborted === true || halted !== undefined || failure !== undefined;
  const onStop = () => changed();
  // Every request in flight, and every batch waiting for the rate limiter, listens on these signals: up to
  // 256 at once, far past Node's default of 10 before it warns of a leak on stderr.
  for (const s of [signal, options.stopNow]) if (s) setMaxListeners(0, s);
  signal?.addEventListener('abort', onStop);
  options.stopNow?.addEventListener('abort', onStop);
  const unsubscribe = plan.onChange(changed);
  try {
    while (!stopping()) {
      if (next >= batches.length) {
        if (!plan.open) break;
        // The next batch is still being read: wait for the plan to grow (or close, or a stop).
        await settledOrRisen(undefined, now());
        continue;
      }
      const active = running.size - backingOff;
      const t = now();
      if (active >= inFlight.limit(t)) {
        await settledOrRisen(inFlight.risesAt(active, t), t);
        continue;
      }
      const index = next++;
      const task = runBatch(index).then(
        (result) => finish(index, result),
        (error: unknown) => {
          // Not the network's (sendOnce turns every network failure into an outcome): a journal that cannot
          // be written, or a bug. Nothing more starts; what is in flight is awaited, then the error thrown.
          failure ??= { error };
          changed();
        },
      );
      running.add(task);
      void task.finally(() => {
        running.delete(task);
        changed();
      });
    }
    await Promise.all(running);
    // Stopped early while the input is still being read: the rest of it is planned (and journaled) all the
    // same, so the run lists every recipient, as not sent. Only a stop-now or a failure leaves it unread.
    while (plan.open && options.stopNow?.aborted !== true && failure === undefined) await settledOrRisen(undefined, now());
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', onStop);
    options.stopNow?.removeEventListener('abort', onStop);
  }
  if (failure) throw failure.error;
  const never = halted ?? 'interrupted before this batch was sent';
  for (let index = next; index < batches.length; index++) {
    const [start, end] = batches[index]!;
    results[index] = batchResult(index, idsOf(index), end - start, { status: 'not_sent', attempts: 0, reason: never });
  }
  return results;
}

/** One attempt; a stop-now before the request left is an attempt that certainly was not processed. */
async function sendOnce(client: PushSender, body: object, stopNow: AbortSignal | undefined, onWritten: (() => void) | undefined): Promise<AttemptOutcome> {
  try {
    return await client.send(body, { ...(stopNow ? { signal: stopNow } : {}), ...(onWritten ? { onWritten } : {}) });
  } catch (error) {
    if (!stopNow?.aborted) throw error;
    return { kind: 'retryable', reason: 'stopped before the request was sent', permanent: true };
  }
}

type Settled = Omit<BatchResult, 'index' | 'clientIds'>;

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
function batchResult(index: number, ids: () => readonly string[], count: number, settled: Settled): BatchResult {
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

/** Turn a batch's last outcome into its final status. */
function settle(attempts: number, last: AttemptOutcome | undefined, stopped: string | undefined, earlierAmbiguous: string | undefined): Settled {
  const base = { attempts };
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
