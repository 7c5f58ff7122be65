import { InFlight } from './in-flight.js';
import type { Pacer } from './pacer.js';

/** Requests in flight at most when the concurrency follows the latency and no `concurrency` caps it. */
export const MAX_CONCURRENCY = 256;
/** Requests in flight without a rate limit to size them by (and the old fixed default). */
export const DEFAULT_CONCURRENCY = 8;

/**
 * The in-flight window of a run: how many batches may be sending at once. With a limiter that tells its pace
 * the width is the pace times the observed latency (see {@link InFlight}), up to `concurrency` (default
 * {@link MAX_CONCURRENCY}); without one, exactly `concurrency` (default {@link DEFAULT_CONCURRENCY}). A batch
 * waiting to retry holds no request in flight, so it does not count against the window.
 */
export class SendWindow {
  private readonly inFlight: InFlight;
  private batches = 0;
  private backingOff = 0;

  constructor(limiter: Pacer | undefined, concurrency: number | undefined) {
    const explicit = concurrency === undefined ? undefined : Math.max(1, Math.floor(concurrency));
    const pace = limiter?.peakRate === undefined ? undefined : () => limiter.peakRate ?? 0;
    this.inFlight = new InFlight({ cap: explicit ?? MAX_CONCURRENCY, unpaced: explicit ?? DEFAULT_CONCURRENCY, ...(pace ? { pace } : {}) });
  }

  /** Batches that hold a place: started, not ended, not waiting to retry. */
  get active(): number {
    return this.batches - this.backingOff;
  }

  /** Whether another batch may start at `now`. */
  hasRoom(now: number): boolean {
    return this.active < this.inFlight.limit(now);
  }

  /** When the window will have widened by the oldest request's age alone; undefined when only an answer can widen it. */
  widensAt(now: number): number | undefined {
    return this.inFlight.risesAt(this.active, now);
  }

  batchStarted(): void {
    this.batches += 1;
  }

  batchEnded(): void {
    this.batches -= 1;
  }

  /** The batch waits to retry; call the function returned when the wait is over. */
  backOff(): () => void {
    this.backingOff += 1;
    return () => {
      this.backingOff -= 1;
    };
  }

  /** A request started at `now`; give the token to `requestEnded`, for the latency that sizes the window. */
  requestStarted(now: number): number {
    return this.inFlight.started(now);
  }

  requestEnded(token: number, now: number): void {
    this.inFlight.finished(token, now);
  }
}
