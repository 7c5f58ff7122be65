import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { ClientIdCollector, type ClientIdStore } from '../../../src/client/client-id-store.js';
import { ClientIdError } from '../../../src/errors.js';
import { readClientIds } from '../../../src/input/read-client-ids.js';
import { recipientCount, sendBatches } from '../../../src/client/send-batches.js';
import { buildReport, reportJsonChunks } from '../../../src/client/report.js';
import { accepted, FakeSender, rejected } from './fake-sender.js';

/** Bytes that are not UTF-8, in the reference's input: the collector refuses them. */
const INVALID_UTF8 = Symbol('invalid UTF-8');
// eslint-disable-next-line no-control-regex -- the collector's rule, restated
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * What the store must match: trim, skip blanks, keep the first of equal strings, count the rest; and
 * refuse (throw) at the first ID with a control character inside, or that was invalid UTF-8.
 */
function reference(raws: Iterable<string | typeof INVALID_UTF8>): { ids: string[]; duplicates: number } {
  const ids: string[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const raw of raws) {
    if (raw === INVALID_UTF8) throw new Error('refused: invalid UTF-8');
    const id = raw.trim();
    if (id === '') continue;
    if (CONTROL.test(id)) throw new Error('refused: control character');
    if (seen.has(id)) duplicates += 1;
    else {
      seen.add(id);
      ids.push(id);
    }
  }
  return { ids, duplicates };
}

/** Every way of reading the store gives the same list. */
function expectStoreEquals(store: ClientIdStore, expected: readonly string[]): void {
  expect(store.length).toBe(expected.length);
  expect(store.toArray()).toEqual(expected);
  expect([...store]).toEqual(expected);
  expect(JSON.stringify(store)).toBe(JSON.stringify(expected));
  for (let i = 0; i < expected.length; i++) expect(store.at(i)).toBe(expected[i]);
  expect(store.at(-1)).toBe(expected.at(-1));
  expect(store.at(expected.length)).toBeUndefined();
}

// Few characters, so repeats are common: ASCII, spaces and controls, Unicode whitespace (trimmed), a BOM,
// multi-byte characters, an astral one, U+FFFD, and lone surrogates (no UTF-8 form).
const tricky = fc.constantFrom('a', 'b', 'Z', '0', '-', ' ', '\t', '\r', '\u001f', '\u00a0', '\u3000', '\u2028', '\ufeff', 'é', 'ü', '中', '😀', '\ufffd', '\ud800', '\udc00');
const idString = fc.oneof(
  fc.array(tricky, { maxLength: 5 }).map((chars) => chars.join('')),
  fc.string({ maxLength: 6, unit: 'binary' }),
  fc.string({ maxLength: 40 }),
);
/** Raw bytes, some not valid UTF-8: addUtf8 must behave like adding their decoded string. */
const idBytes = fc.oneof(
  idString.map((text) => Buffer.from(text, 'utf8')),
  fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes)),
  fc.array(fc.constantFrom(0x20, 0x61, 0x62, 0xc3, 0xa9, 0xff, 0xfe, 0xe2, 0x82), { maxLength: 5 }).map((bytes) => Buffer.from(bytes)),
);
const entry = fc.oneof(
  idString.map((text) => ({ kind: 'string' as const, text })),
  idBytes.map((bytes) => ({ kind: 'bytes' as const, bytes })),
);

describe('ClientIdStore', () => {
  it('behaves exactly like de-duplicating into a string[] (property)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (entries, pageBytes) => {
        const collector = new ClientIdCollector({ pageBytes });
        const add = () => {
          for (const e of entries) {
            if (e.kind === 'string') collector.add(e.text);
            else collector.addUtf8(e.bytes);
          }
        };
        const raws = entries.map((e) => (e.kind === 'string' ? e.text : isUtf8(e.bytes) ? e.bytes.toString('utf8') : INVALID_UTF8));
        let expected: ReturnType<typeof reference>;
        try {
          expected = reference(raws);
        } catch {
          expect(add).toThrow(ClientIdError);
          return;
        }
        add();
        const { ids, duplicates } = collector.result();
        expect(duplicates).toBe(expected.duplicates);
        expectStoreEquals(ids, expected.ids);
      }),
      { numRuns: 300 },
    );
  });

  it('slices like an array, negative and out-of-range bounds included (property)', () => {
    fc.assert(
      fc.property(fc.array(idString, { maxLength: 200 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: -250, max: 250 }), fc.integer({ min: -250, max: 250 }), (raws, pageBytes, start, end) => {
        fc.pre(!raws.some((raw) => CONTROL.test(raw.trim())));
        const { ids } = new ClientIdCollector({ pageBytes }).addAll(raws).result();
        const expected = reference(raws).ids;
        expect(ids.slice(start, end)).toEqual(expected.slice(start, end));
        expect(ids.slice(start)).toEqual(expected.slice(start));
        expect(ids.at(start)).toBe(expected.at(start));
      }),
    );
  });

  it('jsonBytes is JSON.stringify of the slice, byte for byte (property)', () => {
    const tricky = fc.oneof(idString, fc.constantFrom('a"b', 'back\\slash', 'é', '日本', '\u2028', 'x\ud800y', '"'));
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 120 }), fc.integer({ min: 1, max: 64 }), fc.nat(130), fc.nat(130), (raws, pageBytes, a, b) => {
        fc.pre(!raws.some((raw) => CONTROL.test(raw.trim())));
        const { ids } = new ClientIdCollector({ pageBytes }).addAll(raws).result();
        const [start, end] = a <= b ? [a, b] : [b, a];
        expect(ids.jsonBytes(start, end).toString('utf8')).toBe(JSON.stringify(ids.slice(start, end)));
      }),
      { numRuns: 300 },
    );
  });

  it('is a snapshot: IDs added after result() do not change it', () => {
    const collector = new ClientIdCollector({ pageBytes: 4 }).addAll(['a', 'b']);
    const first = collector.result().ids;
    collector.addAll(['c', 'é', 'a', 'd'.repeat(50)]);
    expectStoreEquals(first, ['a', 'b']);
    expectStoreEquals(collector.result().ids, ['a', 'b', 'c', 'é', 'd'.repeat(50)]);
  });

  it('keeps strings with no UTF-8 form apart from their replacement character', () => {
    const { ids, duplicates } = new ClientIdCollector().addAll(['x\ud800', 'x\ufffd', 'x\ud800', ' x\ufffd ']).result();
    expectStoreEquals(ids, ['x\ud800', 'x\ufffd']);
    expect(duplicates).toBe(2);
  });

  it('refuses invalid UTF-8 rather than decode it to U+FFFD, naming the byte', () => {
    const collector = new ClientIdCollector();
    collector.add('a\ufffd');
    expect(() => collector.addUtf8(Buffer.from([0x20, 0x61, 0xff]))).toThrow(expect.objectContaining({ byte: 1 }));
    expectStoreEquals(collector.result().ids, ['a\ufffd']);
  });

  it('holds a large list across many pages', () => {
    const raws = Array.from({ length: 120_000 }, (_, i) => `${(i % 100_000) % 7 === 0 ? 'é' : 'c'}${(i % 100_000).toString(16).padStart(31, '0')}`);
    const collector = new ClientIdCollector();
    for (const raw of raws) collector.addUtf8(Buffer.from(raw));
    const { ids, duplicates } = collector.result();
    const expected = reference(raws);
    expect(duplicates).toBe(expected.duplicates);
    expect(ids.length).toBe(100_000);
    expect(ids.toArray()).toEqual(expected.ids);
    for (const i of [0, 1, 29_999, 30_000, 31_000, 32_767, 32_768, 65_535, 65_536, 99_999]) expect(ids.at(i)).toBe(expected.ids[i]);
  });
});

describe('ClientIdCollector growth', () => {
  // Thousands of IDs: the tables start with room for 1,024 and grow (or are sized from the hint) on the way.
  const idOf = (n: number): string => (n % 97 === 0 ? `é${n}` : n % 89 === 0 ? `x\ud800${n}` : `id-${n.toString(16).padStart(8, '0')}`);
  const bytesOf = (raws: readonly string[]): number => raws.reduce((sum, raw) => sum + Buffer.byteLength(raw) + 1, 0);

  it('finds repeats across growths, without a size hint and with one that is right or wrong either way', () => {
    const unique = Array.from({ length: 6000 }, (_, n) => idOf(n));
    // Repeats of early IDs right after each power of two, then the whole list again.
    const raws = [...unique.slice(0, 1030), ...unique.slice(0, 10), ...unique.slice(1030, 2050), ...unique.slice(1020, 1030), ...unique.slice(2050), ...unique];
    const expected = reference(raws);
    const exact = bytesOf(raws);
    for (const hint of [undefined, 0, 1, 100, exact / 10, exact / 2, exact, exact * 2, exact * 1000, Number.NaN, -5, Number.POSITIVE_INFINITY]) {
      for (const as of ['bytes', 'strings'] as const) {
        const collector = new ClientIdCollector();
        if (hint !== undefined) collector.expectBytes(hint);
        for (const raw of raws) {
          if (as === 'bytes' && !raw.includes('\ud800')) collector.addUtf8(Buffer.from(raw));
          else collector.add(raw);
        }
        const { ids, duplicates } = collector.result();
        expect({ hint, as, duplicates }).toEqual({ hint, as, duplicates: expected.duplicates });
        expect(ids.toArray()).toEqual(expected.ids);
      }
    }
  });

  it('a size hint never changes the result (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3000), { minLength: 900, maxLength: 4000 }), fc.option(fc.nat(400_000)), fc.integer({ min: 1, max: 4096 }), (ns, hint, pageBytes) => {
        const raws = ns.map(idOf);
        const collector = new ClientIdCollector({ pageBytes });
        if (hint !== null) collector.expectBytes(hint);
        for (const raw of raws) collector.add(raw);
        const expected = reference(raws);
        const { ids, duplicates } = collector.result();
        expect(duplicates).toBe(expected.duplicates);
        expect(ids.toArray()).toEqual(expected.ids);
      }),
      // Shrinking thousands of IDs takes minutes: report the first counterexample as it is.
      { numRuns: 40, endOnFailure: true },
    );
  });

  it('takes the hint after IDs were already added (--client-id values, then the file)', () => {
    const first = Array.from({ length: 1500 }, (_, n) => idOf(n));
    const file = Array.from({ length: 5000 }, (_, n) => idOf(n + 1000));
    const collector = new ClientIdCollector().addAll(first).expectBytes(bytesOf(file));
    for (const raw of file) collector.addUtf8(Buffer.from(raw));
    // A lone surrogate has no UTF-8 form: as bytes from a file it is U+FFFD.
    const expected = reference([...first, ...file.map((raw) => Buffer.from(raw).toString('utf8'))]);
    const { ids, duplicates } = collector.result();
    expect(duplicates).toBe(expected.duplicates);
    expect(ids.toArray()).toEqual(expected.ids);
  });
});

describe('readClientIds into a store', () => {
  // Lines of tricky text with any line ends, an optional BOM, cut into chunks at any byte (inside a
  // multi-byte character too): the result is that of splitting the decoded text at CR and LF.
  it('matches splitting the decoded text at line ends, trimming and de-duplicating (property)', async () => {
    const line = fc.oneof(
      fc.array(tricky.filter((c) => c !== '\r'), { maxLength: 5 }).map((chars) => chars.join('')),
      fc.uint8Array({ maxLength: 5 }).map((bytes) => Buffer.from(bytes.map((b) => (b === 0x0a || b === 0x0d || b === 0x7b ? 0x61 : b))).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r'), fc.boolean()), { maxLength: 120 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }),
        async (lines, bom, cuts) => {
          // A line drawn from bytes is written as those bytes (latin1), which may be invalid UTF-8.
          const parts = lines.map(([text, end, raw]) => Buffer.concat([raw ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8'), Buffer.from(end)]));
          const bytes = Buffer.concat([bom ? Buffer.from('\ufeff') : Buffer.alloc(0), ...parts]);
          const text = bytes.toString('utf8');
          // A first character of { is a report, of [ a JSON array, and a comma on the first line is CSV (both
          // refused, see test/unit/input/): not lists of IDs.
          const start = text.replace(/^\ufeff/, '').trimStart();
          fc.pre(!/^[{[]/.test(start) && !start.split(/\r?\n/, 1)[0]!.includes(','));
          const chunks: Buffer[] = [];
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const size = cuts[k % cuts.length]!;
            chunks.push(bytes.subarray(at, at + size));
            at += size;
          }
          // The lines as the reader sees them: each line's bytes, split at CR and LF.
          const byteLines: (string | typeof INVALID_UTF8)[] = [];
          for (let from = 0, i = 0; i <= bytes.length; i++) {
            if (i === bytes.length || bytes[i] === 0x0a || bytes[i] === 0x0d) {
              const piece = bytes.subarray(from, i);
              byteLines.push(isUtf8(piece) ? piece.toString('utf8') : INVALID_UTF8);
              from = i + 1;
            }
          }
          let expected: ReturnType<typeof reference>;
          try {
            expected = reference(byteLines);
          } catch {
            await expect(readClientIds(Readable.from(chunks))).rejects.toMatchObject({ exitCode: 3 });
            return;
          }
          const result = await readClientIds(Readable.from(chunks));
          expect(result.duplicates).toBe(expected.duplicates);
          expect(result.ids.toArray()).toEqual(expected.ids);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads CRLF, a BOM and multi-byte IDs from bytes', async () => {
    const input = Readable.from([Buffer.from('\ufeffé-1\r\n中-2\r\n  é-1  \r\nplain\r\n😀\n')]);
    const { ids, duplicates } = await readClientIds(input);
    expectStoreEquals(ids, ['é-1', '中-2', 'plain', '😀']);
    expect(duplicates).toBe(1);
  });
});

describe('sendBatches with a store', () => {
  const body = { type: 1 as const, time_to_live: 60, condition: { type: 2 as const } };

  it('sends every ID once, in order, and its results and report read the IDs on demand', async () => {
    const raws = Array.from({ length: 2500 }, (_, i) => (i % 5 === 0 ? `é-${i}` : `id-${i}`));
    const { ids } = new ClientIdCollector({ pageBytes: 1000 }).addAll(raws).result();
    const sent: string[][] = [];
    const client = new FakeSender((b, call) => {
      sent.push((b as { condition: { client_ids: string[] } }).condition.client_ids);
      return call === 1 ? rejected() : accepted(`m-${call}`);
    });
    const results = await sendBatches({ client, body, clientIds: ids, concurrency: 1, sleep: async () => undefined });
    expect(sent.flat()).toEqual(raws);
    expect(results.map((r) => r.status)).toEqual(['accepted', 'rejected', 'accepted']);
    expect(results.map(recipientCount)).toEqual([1000, 1000, 500]);
    expect(results.map((r) => r.clientIds)).toEqual(sent);
    const report = JSON.parse([...reportJsonChunks(buildReport(results))].join('')) as ReturnType<typeof buildReport>;
    expect(report.summary.recipients).toEqual({ total: 2500, accepted: 1500, rejected: 1000, in_doubt: 0, not_sent: 0 });
    expect([...report.accepted, ...report.rejected].sort((a, b) => a.batch - b.batch).flatMap((e) => e.client_ids)).toEqual(raws);
    // Assigning the IDs of a result replaces them, as with a plain object.
    results[0]!.clientIds = ['x'];
    expect(results[0]!.clientIds).toEqual(['x']);
    expect(recipientCount(results[0]!)).toBe(1);
  });
});

describe('ClientIdError across copies of the collector', () => {
  // The CLI bundles this module into more than one file (a command's, and the client-ID file reader's). The
  // error class lives in src/errors.ts, of which every copy takes the one shared module, so an error thrown
  // by one copy's collector is recognised by a plain `instanceof` anywhere.
  it('is the one class of src/errors.ts, whichever copy of the collector throws it', async () => {
    // @ts-expect-error: the query, which TypeScript cannot resolve, makes vitest load a second copy.
    const copy = (await import('../../../src/client/client-id-store.js?another-copy')) as typeof import('../../../src/client/client-id-store.js');
    expect(copy.ClientIdCollector).not.toBe(ClientIdCollector);
    let thrown: unknown;
    try {
      new copy.ClientIdCollector().add('a\u0000b');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown instanceof ClientIdError).toBe(true);
    expect(new Error('other') instanceof ClientIdError).toBe(false);
  });
});

describe('ClientIdCollector.release', () => {
  it('frees the index once the list is whole: stores made before still read, and adding more is refused', () => {
    const collector = new ClientIdCollector();
    collector.addAll(Array.from({ length: 5000 }, (_, i) => `r-${i}`));
    const { ids } = collector.result();
    collector.release();
    expect(ids.length).toBe(5000);
    expect(ids.slice(4998, 5000)).toEqual(['r-4998', 'r-4999']);
    expect(collector.current().at(-1)).toBe('r-4999');
    expect(() => collector.add('r-5000')).toThrow(/released/);
    expect(() => collector.add('\uD800')).toThrow(/released/);
  });
});
