import { settle, type Settled } from './batch-result.js';
import { INTERRUPTED_BEFORE_RETRY, INTERRUPTED_BEFORE_START } from './stop-reasons.js';
import type { AttemptOutcome } from './outcome.js';
import { takeTurn, type Pacer, type Turn } from './pacer.js';
import type { PushSender } from './push-client.js';
import { decideRetry, type RetryPolicyOptions } from './retry.js';
import type { SendWindow } from './send-window.js';
import type { Sleep } from './sleep.js';

export interface AttemptEvent {
  batch: number;
  attempt: number;
  body: object;
  outcome: AttemptOutcome;
  /** Present when another attempt will follow after this delay. */
  retryInMs?: number;
}

/** What every batch of a run shares and may change: why the run stopped starting requests, and how many it made. */
export interface RunControl {
  /** Set once the run starts no more requests (the app refused, a journal that cannot record): the reason. */
  halted: string | undefined;
  /** Requests made so far, retries included. */
  requests: number;
}

/** Everything one batch needs to be sent, shared by the batches of a run. */
export interface BatchSending {
  client: PushSender;
  limiter: Pacer | undefined;
  window: SendWindow;
  /** Rung when a request starts or a batch begins to wait for a retry: the window may have room. */
  changed: () => void;
  run: RunControl;
  retry: RetryPolicyOptions | undefined;
  signal: AbortSignal | undefined;
  stopNow: AbortSignal | undefined;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  onAttemptStart: ((batch: number, attempt: number) => void) | undefined;
  onAttempt: ((event: AttemptEvent) => void) | undefined;
}

/**
 * One batch, attempt after attempt as the retry policy allows: each waits for the rate limiter, is recorded
 * before it leaves, and counts in the in-flight window while it is on the wire. Never rejects because of the
 * network (every network failure is an outcome): a rejection is an observer's error or a bug.
 */
export async function sendBatch(s: BatchSending, index: number, body: object): Promise<Settled> {
  let outcome: AttemptOutcome | undefined;
  let attempt = 0;
  let stopped: string | undefined;
  // With --retry-in-doubt, an earlier attempt may have been delivered even if the last one certainly was not.
  let earlierInDoubt: string | undefined;
  for (;;) {
    const turn = await takeTurn(s.limiter, s.signal, s.now);
    // A stop while waiting for a turn is said as the journal's reader says it (stop-reasons.ts): no request
    // left for this attempt, whether it was the batch's first or a retry.
    stopped = turn === undefined ? (attempt === 0 ? INTERRUPTED_BEFORE_START : INTERRUPTED_BEFORE_RETRY) : (s.run.halted ?? recordStart(s, index, attempt + 1));
    if (stopped !== undefined) break;
    attempt += 1;
    s.run.requests += 1;
    if (outcome?.kind === 'in_doubt') earlierInDoubt = outcome.reason;
    outcome = await attemptOnce(s, body, turn!);
    const decision = decideRetry(outcome, attempt, s.random(), s.retry);
    s.onAttempt?.({ batch: index, attempt, body, outcome, ...(decision.retry ? { retryInMs: decision.delayMs } : {}) });
    if (!decision.retry) break;
    stopped = await backOff(s, decision.delayMs);
    if (stopped !== undefined) break;
  }
  // A run the app's refusal halted says so of every batch it stopped, as `results()` and the journal's reader
  // do, whichever stop (that, or a signal) the batch met first.
  return settle(attempt, outcome, stopped === undefined ? undefined : (s.run.halted ?? stopped), earlierInDoubt);
}

/**
 * What `onAttemptStart` records (the journal) must be on disk before the first byte leaves: if it cannot be,
 * this request and every later one stay unsent (docs/behaviour.md#journal). Returns why, then.
 */
function recordStart(s: BatchSending, index: number, attempt: number): string | undefined {
  try {
    s.onAttemptStart?.(index, attempt);
    return undefined;
  } catch (error) {
    s.run.halted ??= error instanceof Error ? error.message : String(error);
    return s.run.halted;
  }
}

/** One request, counted in the window while it is on the wire. */
async function attemptOnce(s: BatchSending, body: object, turn: Turn): Promise<AttemptOutcome> {
  const token = s.window.requestStarted(s.now());
  s.changed();
  let outcome: AttemptOutcome;
  try {
    outcome = await sendOnce(s.client, body, s.stopNow, turn.departed);
  } finally {
    s.window.requestEnded(token, s.now());
  }
  turn.answered(outcome);
  return outcome;
}

/**
 * One attempt; a stop-now before the request left is an attempt that certainly was not processed. The run's
 * signal is not passed on: cutting a request already on the wire would put it in doubt. Only a stop-now
 * does that, on purpose.
 */
async function sendOnce(client: PushSender, body: object, stopNow: AbortSignal | undefined, onWritten: (() => void) | undefined): Promise<AttemptOutcome> {
  try {
    return await client.send(body, { ...(stopNow ? { signal: stopNow } : {}), ...(onWritten ? { onWritten } : {}) });
  } catch (error) {
    if (!stopNow?.aborted) throw error;
    return { kind: 'retryable', reason: 'stopped before the request was sent', permanent: true };
  }
}

/** Waits out a retry's delay outside the window; returns why not to retry when the run was stopped first. */
async function backOff(s: BatchSending, delayMs: number): Promise<string | undefined> {
  if (s.signal?.aborted) return INTERRUPTED_BEFORE_RETRY;
  const resume = s.window.backOff();
  s.changed();
  try {
    await s.sleep(delayMs, s.signal);
    return undefined;
  } catch {
    return INTERRUPTED_BEFORE_RETRY;
  } finally {
    resume();
  }
}
