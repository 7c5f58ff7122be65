import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJournal, looksLikeJournal } from '../../../src/journal/reader.js';
import { JOURNAL_FORMAT, type JournalRecord } from '../../../src/journal/records.js';

const header = (batches: number): JournalRecord => ({
  t: 'header', format: JOURNAL_FORMAT, v: 1, run_id: 'r1', started_at: '2026-11-22T00:00:00.000Z', version: '0.1.0', pid: 1,
  app_id: 'app', host: '127.0.0.1:1', dry_run: false, argv: ['send'], message: { type: 1 }, recipients: batches * 2, batches,
});
const text = (records: JournalRecord[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const batch = (b: number): JournalRecord => ({ t: 'batch', b, ids: [`id-${b}-a`, `id-${b}-b`] });

describe('readJournal: docs/behaviour.md#journal reading rules', () => {
  it('an attempt started with no recorded outcome is in doubt; a batch never started is not_sent', () => {
    const run = readJournal(text([header(3), batch(0), batch(1), batch(2), { t: 'start', b: 0, a: 1 }, { t: 'outcome', b: 0, a: 1, kind: 'accepted', message_id: 'm0' }, { t: 'start', b: 1, a: 1 }]));
    expect(run.results.map((r) => r.status)).toEqual(['accepted', 'in_doubt', 'not_sent']);
    expect(run.results[0]).toMatchObject({ messageId: 'm0', clientIds: ['id-0-a', 'id-0-b'] });
    expect(run.results[2]!.clientIds).toEqual(['id-2-a', 'id-2-b']);
    expect(run.end).toBeUndefined();
  });

  it('a batch whose every attempt was not processed is not_sent; after an in-doubt attempt it is in doubt', () => {
    const run = readJournal(text([
      header(2), batch(0), batch(1),
      { t: 'start', b: 0, a: 1 }, { t: 'outcome', b: 0, a: 1, kind: 'retryable', reason: 'HTTP 503' },
      { t: 'start', b: 0, a: 2 }, { t: 'outcome', b: 0, a: 2, kind: 'retryable', code: 22001, message: 'slow down', reason: 'rate limited' },
      { t: 'start', b: 1, a: 1 }, { t: 'outcome', b: 1, a: 1, kind: 'in_doubt', reason: 'HTTP 500' },
      { t: 'start', b: 1, a: 2 }, { t: 'outcome', b: 1, a: 2, kind: 'retryable', reason: 'HTTP 503' },
    ]));
    expect(run.results[0]).toMatchObject({ status: 'not_sent', code: 22001, attempts: 2 });
    expect(run.results[1]).toMatchObject({ status: 'in_doubt' });
    expect(run.results[1]!.reason).toContain('earlier attempt may have been delivered');
  });

  it('otherwise the last outcome: rejected keeps its code and text', () => {
    const run = readJournal(text([header(1), batch(0), { t: 'start', b: 0, a: 1 }, { t: 'outcome', b: 0, a: 1, kind: 'rejected', code: 21005, message: 'bad' }]));
    expect(run.results[0]).toMatchObject({ status: 'rejected', code: 21005, message: 'bad' });
  });

  it('ignores a torn last line and garbage lines, and counts them', () => {
    const good = text([header(1), batch(0), { t: 'start', b: 0, a: 1 }]);
    const run = readJournal(`${good}not json\n{"t":"outcome","b":0,"a":1,"kind":"acc`);
    expect(run.results[0]!.status).toBe('in_doubt');
    expect(run.skipped).toBe(2);
  });

  it('knows a journal by its first line', () => {
    expect(looksLikeJournal(text([header(1)]))).toBe(true);
    expect(looksLikeJournal('{\n  "version": 1')).toBe(false);
  });
});

const record: fc.Arbitrary<JournalRecord> = fc.oneof(
  fc.constant(header(3)),
  fc.record({ t: fc.constant('batch' as const), b: fc.nat(4), ids: fc.array(fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'é'), { maxLength: 4 }) }),
  fc.record({ t: fc.constant('start' as const), b: fc.nat(4), a: fc.nat(5) }),
  fc.record({
    t: fc.constant('outcome' as const), b: fc.nat(4), a: fc.nat(5),
    kind: fc.constantFrom('accepted' as const, 'rejected' as const, 'in_doubt' as const, 'retryable' as const),
    message_id: fc.string(), code: fc.integer(), reason: fc.string(),
  }),
  fc.record({ t: fc.constant('end' as const), ended_at: fc.string(), interrupted: fc.boolean(), exit_code: fc.integer(), summary: fc.constant({ batches: {}, recipients: {} }) }),
) as fc.Arbitrary<JournalRecord>;

describe('readJournal: property', () => {
  it('any sequence of records, cut at any byte, reads back without throwing and never puts an ID under two outcomes', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), fc.nat(), (records, cutSeed) => {
        const bytes = Buffer.from(text(records), 'utf8');
        const cut = bytes.length === 0 ? 0 : cutSeed % (bytes.length + 1);
        // Cutting inside a UTF-8 sequence is what a torn write does too.
        const run = readJournal(bytes.subarray(0, cut).toString('utf8'));
        const seen = new Set<string>();
        for (const result of run.results) {
          for (const id of result.clientIds) {
            expect(seen.has(id)).toBe(false);
            seen.add(id);
          }
          expect(['accepted', 'rejected', 'in_doubt', 'not_sent']).toContain(result.status);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary text never throws', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (garbage) => void readJournal(garbage)), { numRuns: 300 });
  });
});

describe('readJournal: a journal never looks smaller than its run (docs/behaviour.md#journal)', () => {
  /** A journal as pushctl writes it: header, every batch record, then attempts and perhaps a closing record. */
  const journal = fc
    .record({ sizes: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }), attempts: fc.array(fc.tuple(fc.nat(), fc.constantFrom('accepted', 'in_doubt', 'retryable', 'rejected', undefined)), { maxLength: 12 }), closed: fc.boolean() })
    .map(({ sizes, attempts, closed }) => {
      let n = 0;
      const batches = sizes.map((size, b) => ({ t: 'batch' as const, b, ids: Array.from({ length: size }, () => `c${n++}`) }));
      const records: JournalRecord[] = [{ ...header(batches.length), recipients: n } as JournalRecord, ...batches];
      attempts.forEach(([b, kind], a) => {
        const batch = b % batches.length;
        records.push({ t: 'start', b: batch, a: a + 1 });
        if (kind) records.push({ t: 'outcome', b: batch, a: a + 1, kind } as JournalRecord);
      });
      if (closed) records.push({ t: 'end', ended_at: 'x', interrupted: false, exit_code: 0, summary: { batches: {}, recipients: {} } } as unknown as JournalRecord);
      return { text: text(records), recipients: n, batches: batches.length };
    });

  it('cut at any byte: the totals the header declares, or incomplete', () => {
    fc.assert(
      fc.property(journal, fc.double({ min: 0, max: 1, noNaN: true }), ({ text: full, recipients, batches }, at) => {
        const cut = full.slice(0, Math.floor(full.length * at));
        const run = readJournal(cut);
        if (!run.header) return;
        const found = run.results.reduce((count, r) => count + r.clientIds.length, 0);
        if (run.incomplete) {
          expect(run.incomplete.declared).toEqual({ recipients, batches });
          expect(run.incomplete.reason).toMatch(/cut short/);
        } else {
          expect(found).toBe(recipients);
          expect(run.results).toHaveLength(batches);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a header alone is incomplete, not "nothing left to send"', () => {
    const run = readJournal(text([header(1000)]));
    expect(run.incomplete?.reason).toContain('1000 of 1000 batch records missing (batches 0-999)');
    expect(run.results).toEqual([]);
  });

  it('a plan whose totals came later closes with a plan record; without one it is incomplete', () => {
    const streamed = { ...header(2), recipients: null, batches: null } as unknown as JournalRecord;
    const withPlan = readJournal(text([streamed, batch(0), batch(1), { t: 'plan', recipients: 4, batches: 2 } as JournalRecord]));
    expect(withPlan.incomplete).toBeUndefined();
    expect(withPlan.results.map((r) => r.status)).toEqual(['not_sent', 'not_sent']);
    const cutBefore = readJournal(text([streamed, batch(0), batch(1)]));
    expect(cutBefore.incomplete?.reason).toContain('the total was never known');
  });
});
