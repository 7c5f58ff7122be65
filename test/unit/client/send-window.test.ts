import { describe, expect, it } from 'vitest';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, SendWindow } from '../../../src/client/send-window.js';
import type { Pacer } from '../../../src/client/pacer.js';

const paced = (peakRate: number): Pacer => ({ acquire: async () => undefined, slowDown: () => undefined, peakRate });

/** How many batches the window lets start at `now`, starting none of their requests. */
function room(window: SendWindow, now: number): number {
  let started = 0;
  while (window.hasRoom(now)) {
    window.batchStarted();
    started += 1;
  }
  for (let i = 0; i < started; i++) window.batchEnded();
  return started;
}

describe('SendWindow', () => {
  it('is the fixed concurrency without a pace (default 8), at least 1', () => {
    expect(room(new SendWindow(undefined, undefined), 0)).toBe(DEFAULT_CONCURRENCY);
    expect(room(new SendWindow(undefined, 3), 0)).toBe(3);
    expect(room(new SendWindow(undefined, 0), 0)).toBe(1);
  });

  it('is the pace times the latency plus headroom, up to the cap', () => {
    const window = new SendWindow(paced(50), undefined);
    // No answer yet, nothing in flight: the headroom alone.
    expect(room(window, 0)).toBe(2);
    // One answer after 350 ms at 50/s: 18 in flight by Little's law, plus 2.
    window.requestEnded(window.requestStarted(0), 350);
    expect(room(window, 350)).toBe(20);
    const capped = new SendWindow(paced(50), 5);
    capped.requestEnded(capped.requestStarted(0), 350);
    expect(room(capped, 350)).toBe(5);
    expect(MAX_CONCURRENCY).toBe(256);
  });

  it('does not count a batch waiting to retry', () => {
    const window = new SendWindow(undefined, 1);
    window.batchStarted();
    expect(window.hasRoom(0)).toBe(false);
    const resume = window.backOff();
    expect(window.hasRoom(0)).toBe(true);
    resume();
    expect(window.hasRoom(0)).toBe(false);
  });

  it('widens with the oldest request’s age alone, and says when', () => {
    const window = new SendWindow(paced(10), undefined);
    window.requestStarted(0);
    window.batchStarted();
    window.batchStarted();
    expect(window.hasRoom(0)).toBe(false);
    const at = window.widensAt(0)!;
    expect(at).toBeGreaterThan(0);
    expect(window.hasRoom(at)).toBe(true);
    expect(new SendWindow(undefined, undefined).widensAt(0)).toBeUndefined();
  });
});
