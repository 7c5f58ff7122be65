import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientIdCollector, readClientIds, type ClientIdList } from '../../../src/client/read-client-ids.js';
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

  it('takes a --report file and yields the IDs to send again', async () => {
    const report = buildReport([
      { index: 0, clientIds: ['a'], status: 'accepted', attempts: 1, messageId: 'm' },
      { index: 1, clientIds: ['b', 'c'], status: 'not_sent', attempts: 0, reason: 'interrupted' },
      { index: 2, clientIds: ['d'], status: 'unknown', attempts: 1, reason: 'HTTP 502' },
    ]);
    const input = Readable.from(['\n  ', [...reportJsonChunks(report)].join('')]);
    expect(plain(await readClientIds(input))).toEqual({ ids: ['b', 'c', 'd'], duplicates: 0, fromReport: true });
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
