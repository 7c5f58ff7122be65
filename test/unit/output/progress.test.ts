import { describe, expect, it } from 'vitest';
import { movingRate } from '../../../src/output/progress.js';

describe('movingRate', () => {
  it('never shows more than was done: a burst at the start is counted over a whole second', () => {
    expect(movingRate([10, 12, 15, 20, 22, 25, 30, 31], 40)).toBe(8);
  });

  it('is the count over the last two seconds once the run is longer', () => {
    const times = Array.from({ length: 250 }, (_, i) => i * 20); // 50 per second for 5 s
    expect(movingRate(times, 4990)).toBe(50);
    expect(movingRate(times, 9000)).toBe(0);
  });
});
