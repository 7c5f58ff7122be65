import { describe, expect, it } from 'vitest';
import { RateWindow } from '../../../src/emulator/rate-window.js';

describe('RateWindow', () => {
  it('admits `rate` requests in any one-second window, then refuses until the window moves on', () => {
    const window = new RateWindow(3);
    expect([0, 10, 20, 30].map((t) => window.tryTake('a', t))).toEqual([true, true, true, false]);
    expect(window.tryTake('a', 999)).toBe(false);
    expect(window.tryTake('a', 1000)).toBe(true);
    expect(window.tryTake('a', 1005)).toBe(false);
    expect(window.tryTake('a', 1010)).toBe(true);
  });

  it('keeps one window per app', () => {
    const window = new RateWindow(1);
    expect(window.tryTake('a', 0)).toBe(true);
    expect(window.tryTake('b', 0)).toBe(true);
    expect(window.tryTake('a', 1)).toBe(false);
  });

  it('does not count refused requests', () => {
    const window = new RateWindow(2);
    window.tryTake('a', 0);
    window.tryTake('a', 500);
    for (let t = 600; t < 1000; t += 50) expect(window.tryTake('a', t)).toBe(false);
    expect(window.tryTake('a', 1000)).toBe(true);
  });

  it('never limits with rate 0', () => {
    const window = new RateWindow(0);
    for (let i = 0; i < 10_000; i += 1) expect(window.tryTake('a', 0)).toBe(true);
  });
});
