import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ClientIdCollector, readClientIds } from '../../../src/client/read-client-ids.js';

describe('readClientIds', () => {
  it('trims, skips blanks, removes duplicates in first-seen order, handles CRLF and a BOM', async () => {
    const input = Readable.from(['\uFEFFa\r\n  b  \r\n\r\n', 'a\n\t\nc', '\nb\n']);
    expect(await readClientIds(input)).toEqual({ ids: ['a', 'b', 'c'], duplicates: 2 });
  });

  it('joins lines split across chunks', async () => {
    const input = Readable.from(['ab', 'c\nde', 'f']);
    expect((await readClientIds(input)).ids).toEqual(['abc', 'def']);
  });

  it('shares rules with --client-id values when given the same collector', async () => {
    const collector = new ClientIdCollector().addAll([' x ', 'y']);
    expect(await readClientIds(Readable.from(['y\nz\n']), collector)).toEqual({ ids: ['x', 'y', 'z'], duplicates: 1 });
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
    expect(await readClientIds(Readable.from([]))).toEqual({ ids: [], duplicates: 0 });
  });
});
