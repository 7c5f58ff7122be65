import { STATUS_RATE_LIMITED } from './codes.js';
import type { AttemptOutcome } from './outcome.js';

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

/** One request's turn with the rate limiter: when it may start, when it left, and what its answer says of the pace. */
export interface Turn {
  /** Called when the request was written, for a limiter that counts departures; absent when it does not. */
  readonly departed: (() => void) | undefined;
  /** The request's answer: a 22001 slows the limiter down. */
  answered(outcome: AttemptOutcome): void;
}

/**
 * Waits for the limiter to let one request start (at once without a limiter). Undefined when `signal` stopped
 * the wait: the request must not be made.
 */
export async function takeTurn(limiter: Pacer | undefined, signal: AbortSignal | undefined, now: () => number): Promise<Turn | undefined> {
  let startedAt: number | void;
  try {
    startedAt = await limiter?.acquire(signal);
  } catch {
    return undefined;
  }
  return {
    departed: typeof startedAt === 'number' && limiter?.departed ? () => limiter.departed!(startedAt as number, now()) : undefined,
    answered(outcome) {
      if (outcome.kind === 'retryable' && outcome.code === STATUS_RATE_LIMITED) limiter?.slowDown(startedAt ?? undefined);
    },
  };
}
