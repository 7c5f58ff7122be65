/** Completed requests whose latencies are remembered: enough to ride out one quick answer among slow ones. */
const SAMPLES = 16;
/** Requests beyond what the pace and latency need: one waiting for the rate limiter, one spare. */
const HEADROOM = 2;

export interface InFlightOptions {
  /** The most requests in flight at once. */
  cap: number;
  /**
   * Requests started per second at the fastest (the rate limiter's pace), read each time; 0 or absent: no
   * pace to size by (no rate limit), and `unpaced` is the number.
   */
  pace?: () => number;
  /** The number in flight without a pace; default the cap. */
  unpaced?: number;
}

/**
 * How many requests may be in flight: the pace times the latency, by Little's law (at 50 requests/s and
 * 350 ms, about 18), plus a little headroom, between 1 and the cap. Fixed concurrency starves a run as
 * soon as answers are slow; this follows them.
 *
 * The latency is the slowest of the last few answers, or the age of the oldest request still waiting if
 * that is longer, so the count grows from the first request on, before any answer has come back, and a
 * server that suddenly slows down gets more requests in flight at once rather than fewer per second. The
 * rate limiter, not this count, keeps the run within the service's rate.
 */
export class InFlight {
  private readonly starts = new Map<number, number>();
  private readonly samples = new Float64Array(SAMPLES);
  private sampleCount = 0;
  private nextToken = 0;

  constructor(private readonly options: InFlightOptions) {}

  /** A request started at `now`; give the token to `finished`. */
  started(now: number): number {
    const token = this.nextToken++;
    this.starts.set(token, now);
    return token;
  }

  finished(token: number, now: number): void {
    const start = this.starts.get(token);
    if (start === undefined) return;
    this.starts.delete(token);
    this.samples[this.sampleCount++ % SAMPLES] = now - start;
  }

  /** The most requests that may be in flight at `now`. */
  limit(now: number): number {
    const pace = this.options.pace?.() ?? 0;
    if (!(pace > 0)) return this.options.unpaced ?? this.options.cap;
    const needed = Math.ceil((pace * this.latency(now)) / 1000) + HEADROOM;
    return Math.max(1, Math.min(this.options.cap, needed));
  }

  /**
   * When the limit will have grown past `active` by the oldest request's age alone, or undefined when only
   * an answer can change it (nothing in flight, no pace, or at the cap).
   */
  risesAt(active: number, now: number): number | undefined {
    const pace = this.options.pace?.() ?? 0;
    if (!(pace > 0) || active >= this.options.cap) return undefined;
    const oldest = this.oldestStart();
    if (oldest === undefined) return undefined;
    return Math.max(now, oldest + ((active - HEADROOM) * 1000) / pace + 1);
  }

  private latency(now: number): number {
    let slowest = 0;
    for (let i = 0; i < Math.min(this.sampleCount, SAMPLES); i++) slowest = Math.max(slowest, this.samples[i]!);
    const oldest = this.oldestStart();
    return oldest === undefined ? slowest : Math.max(slowest, now - oldest);
  }

  private oldestStart(): number | undefined {
    // Map keeps insertion order and tokens are issued in start order: the first entry is the oldest.
    for (const start of this.starts.values()) return start;
    return undefined;
  }
}
