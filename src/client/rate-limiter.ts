import { monotonicNow, realSleep, type Sleep } from './sleep.js';

export interface RateLimiterOptions {
  /** Requests per second, shared by every batch of the run; 0 means no limit. */
  rate: number;
  now?: () => number;
  sleep?: Sleep;
  /**
   * Slack on each one-second window, in ms. The service counts arrivals on its own clock; without slack, a
   * request that is a little late on the wire would land in the same server-side window as one sent exactly
   * a second after it and be answered 22001.
   */
  edgeMarginMs?: number;
  /** How long after the last 22001 the rate climbs back one step (each step doubles it). */
  recoverAfterMs?: number;
  /** The most halvings a run of 22001 answers can cause (4: down to a sixteenth of the rate). */
  maxSlowDownLevel?: number;
}

const WINDOW_MS = 1_000;

/** The highest rate a limiter paces (requests per second); 0 means no limit. */
export const MAX_RATE = 100_000;

/**
 * Paces request starts so that no one-second window ever holds more than `rate` of them.
 *
 * Starts are spaced evenly, (1000 + margin) / rate ms apart, rather than sent in bursts of `rate` at the top
 * of each second: even spacing gets the full rate (100 requests at 50/s start within 2.0 s) and survives
 * whatever window the service really uses. Slots are reserved when `acquire` is called, so waiters are
 * served in order and timer lateness does not accumulate. A ring of the last `rate` actual start times
 * then enforces the sliding window as a hard rule, even if a timer fires late and another early.
 */
export class RateLimiter {
  private readonly rate: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly marginMs: number;
  private readonly recoverAfterMs: number;
  private readonly maxLevel: number;
  private readonly starts: Float64Array;
  private startCount = 0;
  private startHead = 0;
  private nextSlot = -Infinity;
  private level = 0;
  private levelSince = 0;

  constructor(options: RateLimiterOptions) {
    // The ring below holds one slot per request of a second, so the rate bounds memory too.
    if (!(options.rate >= 0 && options.rate <= MAX_RATE)) throw new RangeError(`rate must be 0 to ${MAX_RATE}, got ${options.rate}`);
    this.rate = options.rate;
    this.now = options.now ?? monotonicNow;
    this.sleep = options.sleep ?? realSleep;
    // 40 ms: 100 requests at 50/s still start within 2.06 s, and an arrival may be 20 ms later on the
    // service's clock than its neighbours before a window there could hold one too many.
    this.marginMs = options.edgeMarginMs ?? 40;
    this.recoverAfterMs = options.recoverAfterMs ?? 5_000;
    this.maxLevel = options.maxSlowDownLevel ?? 4;
    this.starts = new Float64Array(Math.max(1, Math.floor(this.rate)));
  }

  /** The rate in force now, after any slow-down (0 = unlimited). */
  get effectiveRate(): number {
    this.recover(this.now());
    return this.rate / 2 ** this.level;
  }

  /** Resolve when a request may start; rejects with the signal's reason if aborted while waiting. */
  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.rate === 0) return;
    const now = this.now();
    this.recover(now);
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.interval();
    if (slot > now) await this.sleep(slot - now, signal);

    // Hard rule on actual start times. Half the margin is allowed for timer lateness, half kept for the wire.
    for (;;) {
      signal?.throwIfAborted();
      const t = this.now();
      const earliest = this.oldestStart() + WINDOW_MS + this.marginMs / 2;
      if (t >= earliest) {
        this.recordStart(t);
        return;
      }
      await this.sleep(earliest - t, signal);
    }
  }

  /**
   * Called on a 22001 answer: halve the rate, stepping back up after `recoverAfterMs` without another one.
   * A burst of 22001s from requests that were already in flight counts once, since they report the same
   * overload. With no limit (rate 0) there is nothing to lower; the retry backoff still spaces the retries.
   */
  slowDown(): void {
    if (this.rate === 0) return;
    const now = this.now();
    this.recover(now);
    if (this.level < this.maxLevel && (this.level === 0 || now - this.levelSince >= WINDOW_MS)) this.level += 1;
    this.levelSince = now;
    this.nextSlot = Math.max(this.nextSlot, now + this.interval());
  }

  private interval(): number {
    return (WINDOW_MS + this.marginMs) / (this.rate / 2 ** this.level);
  }

  private recover(now: number): void {
    while (this.level > 0 && now - this.levelSince >= this.recoverAfterMs) {
      this.level -= 1;
      this.levelSince += this.recoverAfterMs;
    }
  }

  /** The start `rate` starts ago, or -Infinity while fewer than `rate` have started. */
  private oldestStart(): number {
    if (this.startCount < this.starts.length) return -Infinity;
    return this.starts[this.startHead]!;
  }

  private recordStart(t: number): void {
    this.starts[this.startHead] = t;
    this.startHead = (this.startHead + 1) % this.starts.length;
    this.startCount = Math.min(this.startCount + 1, this.starts.length);
  }
}
