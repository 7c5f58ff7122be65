import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientIdCollector, readClientIds, type ClientIdList } from '../../../src/input/read-client-ids.js';
import { buildReport, reportJsonChunks } from '../../../src/client/report.js';

/** The store as a plain array, for comparing with expected lists. */
const plain = <T extends Pick<ClientIdList, 'ids'>>({ ids, ...rest }: T) => ({ ids: ids.toArray(), ...rest });

describe('readClientIds', () => {
  it('trims, skips blanks, removes duplicates in first-seen order, handles CRLF and a BOM', async () => {
    const input = Readable.from(['\uFEFFa\r\n  b  \r\n\r\n', 'a\n\t\nc', '\nb\n']);
    expect(plain(await readClientIds(input))).toEqual({ ids: ['a', 'b', 'c'], duplicates: 2 });
  });

  it('joins lines split across chunks', async () => {
    const input = Readable.from(['ab', 'c\nde', 'f']);
    expect((await readClientIds(input)).ids.toArray()).toEqual(['abc', 'def']);
  });

  it('shares rules with --client-id values when given the same collector', async () => {
    const collector = new ClientIdCollector().addAll([' x ', 'y']);
    expect(plain(await readClientIds(Readable.from(['y\nz\n']), collector))).toEqual({ ids: ['x', 'y', 'z'], duplicates: 1 });
  });

  it('streams a large input without trouble', async () => {
    function* lines() {
      for (let i = 0; i < 200_000; i++) yield `client-${i % 150_000}\n`;
    }
    const result = await readClientIds(Readable.from(lines()));
    expect(result.ids).toHaveLength(150_000);
    expect(result.duplicates).toBe(50_000);
  });

  it('gives nothing for an empty input', async () => {
    expect(plain(await readClientIds(Readable.from([])))).toEqual({ ids: [], duplicates: 0 });
  });

  it('splits lone CR line ends and keeps multi-byte characters whole across chunks', async () => {
    const bytes = Buffer.from('é-1\rü-2\n');
    const input = Readable.from([bytes.subarray(0, 1), bytes.subarray(1)]);
    expect((await readClientIds(input)).ids.toArray()).toEqual(['é-1', 'ü-2']);
  });

  it('refuses a line far too long to be a client ID', async () => {
    await expect(readClientIds(Readable.from([Buffer.alloc(200_000, 'a')]))).rejects.toThrow(/longer than/);
  });

  it('takes a --report file and yields the IDs certainly not sent; the unknown ones only when asked', async () => {
    const report = buildReport([
      { index: 0, clientIds: ['a'], status: 'accepted', attempts: 1, messageId: 'm' },
      { index: 1, clientIds: ['b', 'c'], status: 'not_sent', attempts: 0, reason: 'interrupted' },
      { index: 2, clientIds: ['d'], status: 'in_doubt', attempts: 1, reason: 'HTTP 502' },
    ]);
    const input = () => Readable.from(['\n  ', [...reportJsonChunks(report)].join('')]);
    // By default only not_sent: those in doubt may already have the message (docs/behaviour.md#resend).
    expect(plain(await readClientIds(input()))).toEqual({ ids: ['b', 'c'], duplicates: 0, fromReport: true, inDoubtLeftOut: 1 });
    // With includeInDoubt the unknown IDs come first, then the not_sent ones: the order of the report's sections.
    expect(plain(await readClientIds(input(), undefined, { includeInDoubt: true }))).toEqual({ ids: ['d', 'b', 'c'], duplicates: 0, fromReport: true });
  });

  it('says so when JSON input is not a report', async () => {
    await expect(readClientIds(Readable.from(['{"ids": ["a"]}']))).rejects.toThrow(/not a pushctl report/);
    await expect(readClientIds(Readable.from(['{ nope']))).rejects.toThrow(/not valid JSON/);
  });

  it('de-duplicates exactly like a Set, in first-seen order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { maxLength: 5000 }), (raw) => {
        const trimmed = raw.map((id) => id.trim()).filter((id) => id !== '');
        const expected = [...new Set(trimmed)];
        expect(plain(new ClientIdCollector().addAll(raw).result())).toEqual({ ids: expected, duplicates: trimmed.length - expected.length });
      }),
    );
  });
});

describe('reading a report back', () => {
  const status = fc.constantFrom('accepted', 'rejected', 'in_doubt', 'not_sent');
  const id = fc.oneof(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.string({ minLength: 1, maxLength: 6, unit: 'grapheme' }).map((s) => `é${s.replace(/[\s,\n"\\]/g, '')}x`));
  const results = fc
    .array(fc.record({ status, ids: fc.uniqueArray(id, { maxLength: 4 }) }), { maxLength: 8 })
    .map((batches) => {
      // IDs are unique across the whole run, as the collector makes them.
      const seen = new Set<string>();
      return batches.map(({ status: s, ids }, index) => {
        const clientIds = ids.filter((x) => !seen.has(x) && seen.add(x));
        return { index, clientIds, status: s, attempts: 1, ...(s === 'accepted' ? { messageId: `m${index}` } : {}), ...(s === 'rejected' ? { code: 21005, message: 'bad' } : {}), ...(s === 'in_doubt' || s === 'not_sent' ? { reason: 'r' } : {}) };
      });
    });
  const chunked = (text: string, cuts: number[]) => {
    const bytes = Buffer.from(text, 'utf8');
    const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const pieces: Buffer[] = [];
    let from = 0;
    for (const cut of at) {
      pieces.push(bytes.subarray(from, cut));
      from = cut;
    }
    pieces.push(bytes.subarray(from));
    return Readable.from(pieces.filter((p) => p.length > 0));
  };

  it('yields exactly the not_sent IDs (and the unknown ones when asked), however the report is cut into chunks, in pushctl layout or minified', async () => {
    await fc.assert(
      fc.asyncProperty(results, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (batches, cuts, includeInDoubt) => {
        const report = buildReport(batches as Parameters<typeof buildReport>[0]);
        const of = (status: string) => batches.filter((b) => b.status === status).flatMap((b) => b.clientIds);
        const expected = [...(includeInDoubt ? of('in_doubt') : []), ...of('not_sent')];
        const laidOut = [...reportJsonChunks(report)].join('');
        for (const text of [laidOut, JSON.stringify(report, null, 1)]) {
          const read = await readClientIds(chunked(text, cuts), undefined, { includeInDoubt });
          expect(read.ids.toArray()).toEqual(expected);
          expect(read.inDoubtLeftOut ?? 0).toBe(includeInDoubt ? 0 : of('in_doubt').length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a report line that is cut or edited', async () => {
    const report = buildReport([{ index: 0, clientIds: ['a'], status: 'in_doubt', attempts: 1, reason: 'r' }]);
    const broken = [...reportJsonChunks(report)].join('').replace('"client_ids":["a"]', '"client_ids":["a"');
    await expect(readClientIds(Readable.from([broken]))).rejects.toThrow(/not valid JSON/);
  });
});
