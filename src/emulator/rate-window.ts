/**
 * A per-key sliding one-second window: at most `rate` admissions in any window of `windowMs`.
 *
 * Each key keeps a ring of the times of its last `rate` admissions, so a check is O(1) and the memory
 * per key is fixed: a request is admitted when the oldest of those admissions is at least `windowMs` old.
 * Refused requests do not count, as a client that backs off must get through once the window moves on.
 */
export class RateWindow {
  private readonly rings = new Map<string, { times: Float64Array; next: number }>();

  constructor(
    /** Admissions per window; 0 means no limit. */
    readonly rate: number,
    readonly windowMs = 1000,
  ) {}

  /** Records an admission for `key` at `now` (ms) and returns true, or returns false when over the rate. */
  tryTake(key: string, now: number): boolean {
    if (this.rate <= 0) return true;
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.rate).fill(Number.NEGATIVE_INFINITY), next: 0 };
      this.rings.set(key, ring);
    }
    const oldest = ring.times[ring.next] ?? Number.NEGATIVE_INFINITY;
    if (now - oldest < this.windowMs) return false;
    ring.times[ring.next] = now;
    ring.next = (ring.next + 1) % this.rate;
    return true;
  }
}
