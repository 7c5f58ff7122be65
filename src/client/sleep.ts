import { hrtime } from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';

/** Wait `ms`, rejecting with the signal's reason on abort. Injected everywhere so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
};

/**
 * A monotonic clock in milliseconds; wall-clock jumps must not confuse the rate limiter. process.hrtime
 * rather than performance.now(): the first use of `performance` loads nine modules, a millisecond of every
 * send's start-up.
 */
export const monotonicNow = (): number => Number(hrtime.bigint()) / 1e6;
