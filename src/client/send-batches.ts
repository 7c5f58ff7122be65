import { setMaxListeners } from 'node:events';
import type { PushMessage } from '../message/types.js';
import { appRefusal, INTERRUPTED_BEFORE_START } from './stop-reasons.js';
import type { ClientIdSource } from '../message/recipients.js';
import { BatchPlan, MAX_BATCH_SIZE } from './batches.js';
import { batchResult, recipientCount, type BatchResult, type Settled } from './batch-result.js';
import type { Pacer } from './pacer.js';
import type { PushSender } from './push-client.js';
import type { RetryPolicyOptions } from './retry.js';
import { sendBatch, type AttemptEvent, type BatchSending, type RunControl } from './send-batch.js';
import { SendWindow } from './send-window.js';
import { monotonicNow, realSleep, type Sleep } from './sleep.js';
import { Wakeup } from './wakeup.js';

// The parts a run is composed of, for the library and the callers that named them here.
export { recipientCount, refusal, withRecipientCount, type BatchResult, type BatchStatus } from './batch-result.js';
export type { AttemptEvent } from './send-batch.js';

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

export interface SendBatchesOptions {
  client: PushSender;
  /** The validated message; its `condition.client_ids`, if any, are replaced per batch. */
  body: PushMessage;
  /**
   * The message of each variant (docs/behaviour.md#variants), by the tag the plan gives a batch
   * (`plan.lanes`); a batch of lane null, or of a tag not here, carries `body`.
   */
  variants?: ReadonlyMap<string, PushMessage>;
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
   * MAX_CONCURRENCY of send-window.ts). Without one (no rate limit), exactly this many (default 8).
   */
  concurrency?: number;
  /** Shared by every batch (and every run sharing the same app); none means no pacing. */
  limiter?: Pacer;
  retry?: RetryPolicyOptions;
  /** Aborting stops new batches and retries; requests in flight are allowed to finish. */
  signal?: AbortSignal;
  /**
   * Aborting stops at once: requests in flight are cut and become in doubt (or not sent, when their first
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

/** What a run's observers are told: progress per batch, each attempt before it leaves, each attempt's outcome. */
export type SendObserver = Pick<SendBatchesOptions, 'onProgress' | 'onAttemptStart' | 'onAttempt'>;

/**
 * Send a message to many recipients: split, pace, retry what is safe to retry, and account for every batch.
 * Never rejects because of the network; every batch comes back with a status, in input order.
 *
 * Composed of a pacer (the rate limiter's turns, pacer.ts), the in-flight window (send-window.ts), one batch's
 * attempts under the retry policy (send-batch.ts), and the dispatcher below that starts batches in order.
 */
export async function sendBatches(options: SendBatchesOptions): Promise<BatchResult[]> {
  const dispatcher = new Dispatcher(options);
  const unlisten = dispatcher.listen();
  try {
    await dispatcher.dispatch();
  } finally {
    unlisten();
  }
  return dispatcher.results();
}

/** Starts batches in order, each as soon as the rate limiter and the in-flight window allow, and tallies them. */
class Dispatcher {
  private readonly options: SendBatchesOptions;
  private readonly wakeup: Wakeup;
  private readonly sending: BatchSending;
  private readonly run: RunControl = { halted: undefined, requests: 0 };
  private readonly plan: BatchPlan;
  private readonly source: ClientIdSource | undefined;
  private readonly window: SendWindow;
  // Filled as batches end; a batch never started is filled in at the end.
  private readonly settled: BatchResult[] = [];
  private next = 0;
  private batchesDone = 0;
  private recipientsDone = 0;
  private failure: { error: unknown } | undefined;

  constructor(options: SendBatchesOptions) {
    this.options = options;
    const sleep = options.sleep ?? realSleep;
    this.wakeup = new Wakeup(sleep);
    this.window = new SendWindow(options.limiter, options.concurrency);
    // A growing plan reads its recipients as they come, so an empty list now is not a message without any.
    this.source = options.clientIds && (options.plan || options.clientIds.length > 0) ? options.clientIds : undefined;
    this.plan = options.plan ?? BatchPlan.of(this.source?.length ?? 0, options.batchSize ?? MAX_BATCH_SIZE);
    this.sending = {
      client: options.client,
      limiter: options.limiter,
      window: this.window,
      changed: () => this.wakeup.notify(),
      run: this.run,
      retry: options.retry,
      signal: options.signal,
      stopNow: options.stopNow,
      sleep,
      now: options.now ?? monotonicNow,
      random: options.random ?? Math.random,
      onAttemptStart: options.onAttemptStart,
      onAttempt: options.onAttempt,
    };
  }

  /** Wakes the dispatcher on a stop and on a growing plan; returns what undoes it. */
  listen(): () => void {
    const { signal, stopNow } = this.options;
    const onStop = () => this.wakeup.notify();
    // Every request in flight, and every batch waiting for the rate limiter, listens on these signals: up to
    // 256 at once, far past Node's default of 10 before it warns of a leak on stderr.
    for (const s of [signal, stopNow]) {
      if (!s) continue;
      setMaxListeners(0, s);
      s.addEventListener('abort', onStop);
    }
    const unsubscribe = this.plan.onChange(onStop);
    return () => {
      unsubscribe();
      signal?.removeEventListener('abort', onStop);
      stopNow?.removeEventListener('abort', onStop);
    };
  }

  async dispatch(): Promise<void> {
    const running = new Set<Promise<void>>();
    while (!this.stopping()) {
      if (this.next >= this.plan.ranges.length) {
        if (!this.plan.open) break;
        // The next batch is still being read: wait for the plan to grow (or close, or a stop).
        await this.wakeup.wait();
        continue;
      }
      const t = this.sending.now();
      if (!this.window.hasRoom(t)) {
        const at = this.window.widensAt(t);
        await this.wakeup.wait(at === undefined ? undefined : at - t);
        continue;
      }
      const task = this.start(this.next++);
      running.add(task);
      void task.finally(() => {
        this.window.batchEnded();
        running.delete(task);
        this.wakeup.notify();
      });
    }
    await Promise.all(running);
    // Stopped early while the input is still being read: the rest of it is planned (and journaled) all the
    // same, so the run lists every recipient, as not sent. Only a stop-now or a failure leaves it unread.
    while (this.plan.open && this.options.stopNow?.aborted !== true && this.failure === undefined) await this.wakeup.wait();
  }

  /** Every batch in input order, those never started as not sent; throws what made the run fail. */
  results(): BatchResult[] {
    if (this.failure) throw this.failure.error;
    const never = this.run.halted ?? INTERRUPTED_BEFORE_START;
    for (let index = this.next; index < this.plan.ranges.length; index++) {
      this.settled[index] = this.resultOf(index, { status: 'not_sent', attempts: 0, reason: never });
    }
    return this.settled;
  }

  private stopping(): boolean {
    return this.options.signal?.aborted === true || this.options.stopNow?.aborted === true || this.run.halted !== undefined || this.failure !== undefined;
  }

  private start(index: number): Promise<void> {
    this.window.batchStarted();
    // The batch's strings exist only while it is being sent (and in `onAttempt` events).
    return sendBatch(this.sending, index, bodyFor(this.messageOf(index), this.idsOf(index)())).then(
      (settled) => this.finish(index, this.resultOf(index, settled)),
      (error: unknown) => {
        // Not the network's (sendBatch turns every network failure into an outcome): a journal that cannot
        // be written, or a bug. Nothing more starts; what is in flight is awaited, then the error thrown.
        this.failure ??= { error };
        this.wakeup.notify();
      },
    );
  }

  private finish(index: number, result: BatchResult): void {
    this.settled[index] = result;
    this.run.halted ??= appRefusal(result);
    this.batchesDone += 1;
    this.recipientsDone += recipientCount(result);
    const { plan } = this;
    const recipientsTotal = plan.complete ? plan.recipients : Math.max(plan.recipients, this.options.clientIds?.length ?? 0);
    this.options.onProgress?.({ batchesDone: this.batchesDone, batchesTotal: plan.ranges.length, planComplete: plan.complete, recipientsDone: this.recipientsDone, recipientsTotal, requests: this.run.requests, last: result });
  }

  /** The message batch `index` carries: its variant's, else the base message. */
  private messageOf(index: number): PushMessage {
    const lane = this.plan.lanes?.[index];
    return (lane != null ? this.options.variants?.get(lane) : undefined) ?? this.options.body;
  }

  private idsOf(index: number): () => readonly string[] {
    const [start, end] = this.plan.ranges[index]!;
    const source = this.source;
    return source && end > start ? () => source.slice(start, end) : () => [];
  }

  private resultOf(index: number, settled: Settled): BatchResult {
    const [start, end] = this.plan.ranges[index]!;
    const lane = this.plan.lanes?.[index];
    return batchResult(index, this.idsOf(index), end - start, lane === undefined ? settled : { ...settled, variant: lane });
  }
}

/** The body of one batch's request: the message, its client IDs replaced by the batch's. */
function bodyFor(body: PushMessage, clientIds: readonly string[]): object {
  return clientIds.length === 0 ? body : { ...body, condition: { ...body.condition, type: 2, client_ids: clientIds } };
}
