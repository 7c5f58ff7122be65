// isoTime writes a Date as Date#toISOString does, from its UTC fields: every journal timestamp and run id.
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/iso-time.js';
import { newRunId } from '../../src/journal/runs-dir.js';

describe('isoTime', () => {
  it.each([
    0,
    Date.UTC(2026, 11, 2, 13, 5, 7, 9),
    Date.UTC(1999, 11, 31, 23, 59, 59, 999),
    Date.UTC(2000, 1, 29, 0, 0, 0, 0),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    Date.UTC(10_000, 0, 1),
    Date.UTC(-1, 0, 1),
    -62_198_755_200_000, // year 0
  ])('%d reads as toISOString reads it', (ms) => {
    const date = new Date(ms);
    expect(isoTime(date)).toBe(date.toISOString());
  });

  it('agrees with toISOString over a spread of times', () => {
    for (let ms = -5e12; ms < 5e12; ms += 7_919_000_003) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('makes the run id from it', () => {
    expect(newRunId(new Date(Date.UTC(2026, 10, 22, 23, 15, 2)), () => 0.3)).toBe('20261122-231502-4ccc');
  });
});
