/** Virtual time for the rate limiter and backoff: sleeps resolve in deadline order, instantly. */
export class VirtualClock {
  private t = 0;
  private timers: { at: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;
  /** Extra delay added to every sleep, to imitate timers that fire late. */
  lateness: () => number = () => 0;

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: this.t + Math.max(0, ms) + this.lateness(), seq: this.seq++, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((other) => other !== timer);
        reject(signal.reason);
      }, { once: true });
    });

  /** Let `ms` of virtual time pass. */
  async advance(ms: number): Promise<void> {
    const done = this.sleep(ms);
    await this.run();
    await done;
  }

  /** Advance time timer by timer until nothing is pending, letting promise chains run in between. */
  async run(): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.timers.length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.timers.length === 0) return;
      }
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const timer = this.timers.shift()!;
      this.t = Math.max(this.t, timer.at);
      timer.resolve();
    }
  }
}

/** Largest number of timestamps inside any closed window [t, t + width]. */
export function maxInWindow(times: readonly number[], width = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi]! - sorted[lo]! > width) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
