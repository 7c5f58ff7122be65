import { monotonicNow, realSleep, type Sleep } from './sleep.js';

export interface RateLimiterOptions {
  /** Requests per second, shared by every batch of the run; 0 means no limit. */
  rate: number;
  now?: () => number;
  sleep?: Sleep;
  /**
   * Slack on each one-second window, in ms. The service counts arrivals on its own clock; a request that
   * reaches it late (a busy or freshly started server reads a backlog of requests at once) lands in a later
   * window than it left in, so the window our starts are counted in is this much longer than the service's.
   */
  edgeMarginMs?: number;
  /**
   * How much faster than the rate starts are spaced inside a window (1 = evenly over the whole second). The
   * window rule still holds every second to the rate; spacing starts a little tighter lets a run of a few
   * windows finish sooner (100 requests at 50/s: the last starts at 1.79 s rather than 2.06 s) without the
   * one-instant burst of `rate` requests that a server would read in a heap (faster spacing than 1.35 let a
   * busy emulator fall behind within the window, and its late readings then refused the next window).
   */
  burst?: number;
  /** After a slow-down, the share of the full rate regained per second while no new 22001 comes. */
  recoverPerSecond?: number;
  /** The lowest share of the rate a run of 22001 answers can bring the limiter to (1/16). */
  minShare?: number;
}

const WINDOW_MS = 1_000;
/** A slow-down for a measured limit takes at least this much off the rate, and never more than half. */
const MIN_CUT = 0.9;
/** A stray 22001 takes this much off. */
const STRAY_CUT = 0.95;
const MAX_CUT = 0.5;
/** A second with fewer of its requests refused than this is not taken as the measure of a real limit. */
const STRAY_SHARE = 0.25;
/** Recovery slows down at this share of the real limit last measured. */
const KNEE = 0.95;

/** Extra margin after the first fifth of a run's first window (see windowOpensAt). */
const COLD_MARGIN_MS = 120;

/** The highest rate a limiter paces (requests per second); 0 means no limit. */
export const MAX_RATE = 100_000;

/**
 * Paces request starts so that no window of one second (plus a margin) ever holds more than the rate of them.
 *
 * Two rules. Starts are spaced `1000 / (rate × burst)` ms apart, reserved when `acquire` is called, so
 * waiters are served in order and timer lateness does not accumulate. And a ring of recent start times
 * enforces the sliding window as a hard rule: a request starts only once the `rate`-th start before it is
 * a window and a margin old, even if a timer fires late and another early.
 *
 * A 22001 answer means the service counts more than we do (another run of the same app, or a lower limit
 * than `--rate`). The limiter then lowers its rate to what the service let through in the second before the
 * refused request started (at least 10% less, at most half), once per generation: answers to requests that
 * were already on their way when it last slowed down say nothing about the new rate. A stray 22001 (few of
 * that second's requests refused: a server that read one late, or chaos) costs 5%, at most once a second. While no new evidence
 * comes, it climbs back (`recoverPerSecond`), quickly to just under the rate that was refused and slowly
 * above it, so a few stray 22001s cost a moment, not the run, and a real limit is probed without a pile-up.
 */
export class RateLimiter {
  private readonly rate: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly marginMs: number;
  private readonly burst: number;
  private readonly recoverPerSecond: number;
  private readonly minShare: number;
  /** Start times of the last requests (a ring), and the starts ever recorded. */
  private readonly starts: Float64Array;
  /** The same requests' start times as `acquire` gave them, to find one again in `departed`. */
  private readonly granted: Float64Array;
  private startCount = 0;
  private nextSlot = -Infinity;
  /** The share of the rate in force at `shareSince`; it recovers linearly from there. */
  private share = 1;
  private shareSince = 0;
  /** The real limit last measured, as a share of the rate (1: none measured). */
  private ceiling = 1;
  /** When the limiter last slowed down: the start of the current generation of requests. */
  private generation = -Infinity;
  /** Start times of requests answered 22001 in the last few seconds, for the estimate of what got through. */
  private refused: number[] = [];
  private firstStart = Infinity;
  private lastStart = -Infinity;

  constructor(options: RateLimiterOptions) {
    // The ring below holds four seconds of starts at the rate, so the rate bounds memory too.
    if (!(options.rate >= 0 && options.rate <= MAX_RATE)) throw new RangeError(`rate must be 0 to ${MAX_RATE}, got ${options.rate}`);
    this.rate = options.rate;
    this.now = options.now ?? monotonicNow;
    this.sleep = options.sleep ?? realSleep;
    // 60 ms: a busy emulator read requests up to 40 ms late in a heap, which the old 20 ms of slack did not
    // cover. It costs 6% of the long-run rate (47 of 50 per second). A fresh server's slower first readings
    // have a margin of their own (COLD_MARGIN_MS), and a new connection's handshakes are seen (departed).
    this.marginMs = options.edgeMarginMs ?? 60;
    this.burst = Math.max(1, options.burst ?? 1.35);
    this.recoverPerSecond = options.recoverPerSecond ?? 0.2;
    this.minShare = options.minShare ?? 1 / 16;
    // Four seconds of starts: the window rule needs one, the estimate after a 22001 the second before a
    // request that may have taken seconds to be answered.
    this.starts = new Float64Array(Math.max(1, Math.floor(this.rate)) * 4);
    this.granted = new Float64Array(this.starts.length);
  }

  /** The rate in force now, after any slow-down (0 = unlimited). */
  get effectiveRate(): number {
    return this.rate * this.shareAt(this.now());
  }

  /**
   * The fastest rate starts are spaced at inside a window (0 = unlimited): with the observed latency, how
   * many requests must be in flight at once to keep up (Little's law; see send-batches.ts).
   */
  get peakRate(): number {
    return this.effectiveRate * this.burst;
  }

  /**
   * Resolve when a request may start, with its start time (give it back to `slowDown` on a 22001); rejects
   * with the signal's reason if aborted while waiting.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    if (this.rate === 0) return this.now();
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + WINDOW_MS / (this.rate * this.shareAt(now) * this.burst);
    if (slot > now) await this.sleep(slot - now, signal);

    // The hard rule on actual start times; and requests that waited for the window to open leave spaced
    // out (half the pace's gap at least), not all at the instant it opens.
    for (;;) {
      signal?.throwIfAborted();
      const t = this.now();
      const earliest = Math.max(this.windowOpensAt(t), this.lastStart + WINDOW_MS / (2 * this.rate * this.shareAt(t) * this.burst));
      if (t >= earliest) {
        this.recordStart(t);
        return t;
      }
      await this.sleep(earliest - t, signal);
    }
  }

  /**
   * The request that `acquire` let start at `startedAt` was written to its connection only at `at` (a new
   * connection's handshakes came first): the window rule counts it from then, as the service will.
   */
  departed(startedAt: number, at: number): void {
    if (!(at > startedAt)) return;
    const length = this.starts.length;
    for (let i = this.startCount - 1; i >= Math.max(0, this.startCount - length); i--) {
      if (this.granted[i % length] !== startedAt) continue;
      // Requests let go after it are counted from no earlier than it: the ring stays in order, so the
      // start `k` places back still bounds every start before it.
      for (let j = i; j < this.startCount; j++) this.starts[j % length] = Math.max(this.starts[j % length]!, at);
      return;
    }
  }

  /**
   * Called on a 22001 answer to the request that started at `startedAt` (as `acquire` gave it; without it,
   * the answer counts as new evidence). Lowers the rate once per generation, as the class comment says.
   * With no limit (rate 0) there is nothing to lower; the retry backoff still spaces the retries.
   */
  slowDown(startedAt?: number): void {
    if (this.rate === 0) return;
    const now = this.now();
    // A 22001 whose request's start is not known is taken as one that may have been on its way for a window.
    const started = startedAt ?? now - WINDOW_MS;
    this.refused.push(started);
    if (this.refused.length > 4 * this.starts.length) this.refused = this.refused.filter((t) => t >= now - 2 * WINDOW_MS);
    // Already on its way when the limiter last slowed down: the same overload, reported again.
    if (started <= this.generation) return;
    const current = this.rate * this.shareAt(now);
    // What the service let through in the second up to this request's start: its real limit for us.
    const from = Math.max(started - WINDOW_MS, this.firstStart);
    const sent = this.ringCovers(from) ? this.startsBetween(from, started) : 0;
    const refused = this.refused.filter((t) => t >= from && t <= started).length;
    let target: number;
    let ceiling = 1;
    if (refused <= Math.max(1, STRAY_SHARE * sent)) {
      // A stray answer or two (a server that read a request late, a hiccup): a small cut, at most once a
      // window, and the rate soon climbs back all the way.
      if (now - this.generation < WINDOW_MS) return;
      target = current * STRAY_CUT;
    } else if (started - from >= WINDOW_MS) {
      const through = Math.max(1, sent - refused);
      target = Math.min(current * MIN_CUT, Math.max(through, current * MAX_CUT));
      ceiling = through / this.rate;
    } else {
      // Refused in earnest before a whole window has passed: the count says only that the run is young.
      target = current * MAX_CUT;
    }
    this.ceiling = ceiling;
    this.share = Math.max(this.minShare, target / this.rate);
    this.shareSince = now;
    this.generation = now;
    // Nothing more leaves at the old pace.
    this.nextSlot = Math.max(this.nextSlot, now + WINDOW_MS / (this.rate * this.share * this.burst));
  }

  /**
   * The share in force at `now`: climbing back from the last slow-down at `recoverPerSecond` up to just
   * under the rate that was refused (the ceiling), then at a quarter of that speed, so that a run held by a
   * real limit probes above it gently instead of overshooting it every second.
   */
  private shareAt(now: number): number {
    if (this.share >= 1) return 1;
    const seconds = Math.max(0, now - this.shareSince) / WINDOW_MS;
    const knee = Math.max(this.share, KNEE * this.ceiling);
    const toKnee = this.recoverPerSecond > 0 ? (knee - this.share) / this.recoverPerSecond : Infinity;
    const share = seconds <= toKnee ? this.share + this.recoverPerSecond * seconds : knee + (this.recoverPerSecond / 4) * (seconds - toKnee);
    return Math.min(1, share);
  }

  /**
   * When the next request may start: `k` starts fit in a window of `1000 × k / rate` ms at the rate in
   * force (the whole ring at the full rate), so the `k`-th start back must be that window and the margin old.
   */
  private windowOpensAt(now: number): number {
    const rate = this.rate * this.shareAt(now);
    const k = Math.max(1, Math.min(this.starts.length, Math.floor(rate)));
    if (this.startCount < k) return -Infinity;
    const partner = this.startCount - k;
    // A freshly started or long-idle server reads the first requests of a run late, in a heap, while the
    // later ones of that window arrive on time: the next window waits longer for those first few only, so
    // the requests after them still go on schedule.
    const cold = partner < Math.ceil(k / 5) ? COLD_MARGIN_MS : 0;
    return this.starts[partner % this.starts.length]! + (WINDOW_MS * k) / rate + this.marginMs + cold;
  }

  /** Whether the ring still holds every start since `t`. */
  private ringCovers(t: number): boolean {
    if (this.startCount <= this.starts.length) return true;
    return this.starts[this.startCount % this.starts.length]! < t;
  }

  /** Starts from `from` to `to`, both included. */
  private startsBetween(from: number, to: number): number {
    let count = 0;
    for (let i = Math.max(0, this.startCount - this.starts.length); i < this.startCount; i++) {
      const t = this.starts[i % this.starts.length]!;
      if (t >= from && t <= to) count++;
    }
    return count;
  }

  private recordStart(t: number): void {
    this.lastStart = t;
    this.granted[this.startCount % this.starts.length] = t;
    if (this.startCount === 0) this.firstStart = t;
    this.starts[this.startCount % this.starts.length] = t;
    this.startCount += 1;
  }
}
