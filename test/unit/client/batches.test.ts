import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchRanges } from '../../../src/client/batches.js';
import { ClientIdCollector } from '../../../src/input/read-client-ids.js';

/** The batches the ranges cut from `ids`, as a send reads them from its source. */
const chunk = <T>(ids: { readonly length: number; slice(start: number, end: number): T[] }, size?: number): T[][] => batchRanges(ids.length, size).map(([start, end]) => ids.slice(start, end));

describe('batchRanges', () => {
  it('splits 2500 IDs into 1000, 1000, 500', () => {
    const ids = Array.from({ length: 2500 }, (_, i) => `id-${i}`);
    expect(chunk(ids).map((batch) => batch.length)).toEqual([1000, 1000, 500]);
  });

  it('refuses sizes outside 1..1000', () => {
    for (const size of [0, -1, 1001, 2.5, Number.NaN]) expect(() => chunk(['a'], size)).toThrow(RangeError);
  });

  it('gives no batch for no IDs', () => {
    expect(chunk([], 10)).toEqual([]);
  });

  it('is a true partition of the de-duplicated input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 3000 }), fc.integer({ min: 1, max: 1000 }), (raw, size) => {
        const { ids } = new ClientIdCollector().addAll(raw).result();
        const batches = chunk(ids, size);
        const flat = batches.flat();
        expect(flat).toEqual(ids.toArray());
        expect(new Set(flat).size).toBe(flat.length);
        expect(new Set(flat)).toEqual(new Set(raw.map((id) => id.trim()).filter((id) => id !== '')));
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(size);
        }
      }),
    );
  });
});
