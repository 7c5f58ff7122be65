import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/client/rate-limiter.js';
import { maxInWindow, VirtualClock } from './virtual-clock.js';

async function startTimes(limiter: RateLimiter, clock: VirtualClock, count: number): Promise<number[]> {
  const times: number[] = [];
  const all = Promise.all(
    Array.from({ length: count }, () => limiter.acquire().then(() => times.push(clock.now()))),
  );
  await clock.run();
  await all;
  return times;
}

describe('RateLimiter', () => {
  it('starts 100 requests at rate 50 within 5% of the ideal 2 s, never 51 in one second', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ rate: 50, now: clock.now, sleep: clock.sleep });
    const times = await startTimes(limiter, clock, 100);
    expect(times).toHaveLength(100);
    expect(maxInWindow(times)).toBeLessThanOrEqual(50);
    // Virtual time, not wall time: the pacing itself must not waste the budget (ideal is 99 gaps of 20 ms;
    // the edge margin widens each gap to 20.8 ms).
    expect(Math.max(...times)).toBeLessThanOrEqual(2100);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(1980);
  });

  it('keeps a margin on window edges', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ rate: 10, now: clock.now, sleep: clock.sleep, edgeMarginMs: 10 });
    const times = await startTimes(limiter, clock, 30);
    expect(maxInWindow(times, 1004)).toBeLessThanOrEqual(10);
  });

  it('holds the sliding window even when timers fire late (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 120 }),
        async (rate, lateness, count) => {
          const clock = new VirtualClock();
          let i = 0;
          clock.lateness = () => lateness[i++ % lateness.length]!;
          const limiter = new RateLimiter({ rate, now: clock.now, sleep: clock.sleep });
          const times = await startTimes(limiter, clock, count);
          expect(times).toHaveLength(count);
          expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(rate);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('does not wait at all with rate 0', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ rate: 0, now: clock.now, sleep: clock.sleep });
    const times = await startTimes(limiter, clock, 500);
    expect(Math.max(...times)).toBe(0);
    limiter.slowDown();
    expect(limiter.effectiveRate).toBe(0);
  });

  it('halves the rate on slowDown, counts a burst once, and recovers', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ rate: 40, now: clock.now, sleep: clock.sleep, recoverAfterMs: 5000 });
    limiter.slowDown();
    limiter.slowDown();
    limiter.slowDown();
    expect(limiter.effectiveRate).toBe(20);
    const times = await startTimes(limiter, clock, 40);
    expect(maxInWindow(times)).toBeLessThanOrEqual(20);
    await clock.advance(5000);
    expect(limiter.effectiveRate).toBe(40);
  });

  it('rejects a waiting acquire when aborted', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ rate: 1, now: clock.now, sleep: clock.sleep });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(limiter.acquire(controller.signal)).rejects.toThrow('stop');
  });

  it('refuses a negative rate', () => {
    expect(() => new RateLimiter({ rate: -1 })).toThrow(RangeError);
  });
});
