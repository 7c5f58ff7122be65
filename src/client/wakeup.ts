import type { Sleep } from './sleep.js';

/**
 * The dispatcher's doorbell: it waits for something to change (a batch done or started, a stop, the plan
 * grown) or, when given, for a time to pass (the oldest request's age alone can widen the window). A ring
 * while nobody waits is dropped: the dispatcher looks at the state again before it waits.
 */
export class Wakeup {
  private ring: (() => void) | undefined;

  constructor(private readonly sleep: Sleep) {}

  /** Something changed: the one waiting, if any, looks again. */
  notify(): void {
    const go = this.ring;
    this.ring = undefined;
    go?.();
  }

  /** Until `notify`, or until `ms` have passed when given. */
  async wait(ms?: number): Promise<void> {
    const timer = new AbortController();
    const woken = new Promise<void>((resolve) => (this.ring = resolve));
    const waits: Promise<unknown>[] = [woken];
    if (ms !== undefined) waits.push(this.sleep(ms, timer.signal).catch(() => undefined));
    await Promise.race(waits);
    this.ring = undefined;
    timer.abort();
  }
}
