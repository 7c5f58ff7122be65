// Client IDs in variant lanes (docs/behaviour.md#variants): each ID in the lane of its language's variant, and
// a plan over the lanes whose batches each carry one variant — a true partition of the recipients.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchPlan } from '../../../src/client/batches.js';
import type { GrowingClientIds } from '../../../src/message/recipients.js';
import { GrowingVariantRecipients, VariantRecipients } from '../../../src/message/variant-recipients.js';

const TAGS = ['fr', 'pt-BR'];
const POOL = ['fr', 'fr-CA', 'pt-BR', 'pt', 'en', undefined];

/** Each batch of the plan: its lane and its IDs. */
const batchesOf = (plan: BatchPlan, lanes: VariantRecipients) => plan.ranges.map(([start, end], b) => ({ lane: plan.lanes![b], ids: lanes.slice(start, end) }));

describe('VariantRecipients.whole', () => {
  it('puts each ID in its variant\'s lane (exact tag, then bare language), the base last', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const languages = ['fr-CA', 'en', 'pt-BR', 'fr', undefined, 'pt'];
    const lanes = VariantRecipients.whole(ids, { at: (i) => languages[i] }, TAGS);
    expect(lanes.slice(0, lanes.length)).toEqual(['a', 'd', 'c', 'b', 'e', 'f']);
    expect(batchesOf(BatchPlan.of(lanes.length, 1000, lanes), lanes)).toEqual([
      { lane: 'fr', ids: ['a', 'd'] },
      { lane: 'pt-BR', ids: ['c'] },
      { lane: null, ids: ['b', 'e', 'f'] },
    ]);
  });

  it('plans a true partition: every ID once, each batch one lane and at most the batch size', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...POOL), { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (languages, size) => {
        const ids = languages.map((_, i) => `id-${i}`);
        const lanes = VariantRecipients.whole(ids, { at: (i) => languages[i] }, TAGS);
        const batches = batchesOf(BatchPlan.of(lanes.length, size, lanes), lanes);
        const all = batches.flatMap((b) => b.ids);
        expect(all.sort()).toEqual([...ids].sort());
        for (const batch of batches) {
          expect(batch.ids.length).toBeLessThanOrEqual(size);
          const expected = new Set(batch.ids.map((id) => { const l = languages[Number(id.slice(3))]; return l?.startsWith('fr') ? 'fr' : l === 'pt-BR' ? 'pt-BR' : null; }));
          if (batch.ids.length > 0) expect(expected).toEqual(new Set([batch.lane]));
        }
      }),
    );
  });
});

/** A list read in pieces, as a ClientIdFeed is. */
class Growing implements GrowingClientIds {
  readonly growing = true;
  readonly ids: string[] = [];
  list: { duplicates: number } | undefined;
  failure: unknown;
  private readonly listeners = new Set<() => void>();
  get length() {
    return this.ids.length;
  }
  get settled() {
    return this.list !== undefined;
  }
  slice(start: number, end: number) {
    return this.ids.slice(start, end);
  }
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  cancel() {}
  release() {}
  push(...ids: string[]) {
    this.ids.push(...ids);
    for (const l of this.listeners) l();
  }
  end() {
    this.list = { duplicates: 0 };
    for (const l of this.listeners) l();
  }
}

describe('GrowingVariantRecipients', () => {
  it('lets a lane\'s full batches out while the input is read, and every lane\'s rest at its end', () => {
    const feed = new Growing();
    const languages: Record<string, string> = { a: 'fr', b: 'en', c: 'fr', d: 'en', e: 'fr', f: 'pt-BR' };
    const lanes = new GrowingVariantRecipients(feed, { at: (i) => languages[feed.ids[i]!] }, TAGS, 2);
    const plan = new BatchPlan(2, lanes);
    lanes.onChange(() => (lanes.list ? plan.extend(lanes.length, true) : plan.extend(lanes.length)));
    feed.push('a', 'b', 'c');
    // Two French IDs fill a batch: it may leave; the one English ID waits for a second.
    expect(batchesOf(plan, lanes)).toEqual([{ lane: 'fr', ids: ['a', 'c'] }]);
    feed.push('d', 'e', 'f');
    expect(batchesOf(plan, lanes)).toEqual([{ lane: 'fr', ids: ['a', 'c'] }, { lane: null, ids: ['b', 'd'] }]);
    feed.end();
    expect(batchesOf(plan, lanes)).toEqual([
      { lane: 'fr', ids: ['a', 'c'] },
      { lane: null, ids: ['b', 'd'] },
      { lane: 'fr', ids: ['e'] },
      { lane: 'pt-BR', ids: ['f'] },
    ]);
    expect(plan.complete).toBe(true);
  });
});
