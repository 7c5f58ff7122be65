// Hostile client-ID input (issue 11, "Input"): invalid UTF-8, control characters, a JSON array, and the
// line-length limit whatever the read chunking.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readClientIds } from '../../../src/input/read-client-ids.js';
import { validateMessage } from '../../../src/message/validate.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
/** The same input cut into chunks of `size` bytes. */
const chunked = (input: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(input.length / size) }, (_, i) => input.subarray(i * size, (i + 1) * size)));

describe('client-ID files', () => {
  it.each([1, 2, 3, 7, 1 << 20])('names the line and byte of invalid UTF-8 (chunks of %i bytes)', async (size) => {
    const input = bytes('alpha\nbeta\nga', [0xc3, 0x28], 'mma\n');
    await expect(readClientIds(chunked(input, size))).rejects.toMatchObject({ exitCode: 3, message: 'invalid UTF-8 in a client ID at line 3, byte 3 of the client-ID input' });
  });

  it('refuses a truncated multi-byte character at the end of the file', async () => {
    await expect(readClientIds(Readable.from([bytes('ok\nbad', [0xe2, 0x82])]))).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('line 2, byte 4') });
  });

  it('still accepts well-formed non-ASCII IDs', async () => {
    expect((await readClientIds(chunked(bytes('设备-1\nappareil-é\n'), 1))).ids.toArray()).toEqual(['设备-1', 'appareil-é']);
  });

  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['escape', 'x\u001b[2Jy', 'U+001B'],
    ['vertical tab inside', 'p\u000bq', 'U+000B'],
  ])('refuses a %s inside a client ID', async (_what, id, code) => {
    await expect(readClientIds(Readable.from([`ok\n${id}\n`]))).rejects.toMatchObject({ exitCode: 3, message: expect.stringMatching(new RegExp(`${code.replace("+", "\\+")}.* at line 2 `)) });
  });

  it('says a JSON array looks like JSON and what to pass instead', async () => {
    await expect(readClientIds(Readable.from(['  ["a", "b"]\n']))).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('looks like a JSON array'), hint: expect.stringContaining("jq -r '.[]'") });
  });

  it.each([1000, 4096, 65_536, 65_537, 1 << 20])('holds the line-length limit whatever the chunking (chunks of %i bytes)', async (size) => {
    const input = bytes('short\n', 'x'.repeat(64 * 1024 + 1), '\nafter\n');
    await expect(readClientIds(chunked(input, size))).rejects.toMatchObject({ exitCode: 3, message: expect.stringContaining('longer than 65536 bytes') });
  });

  it('accepts a line of exactly the limit', async () => {
    const input = bytes('x'.repeat(64 * 1024), '\n');
    expect((await readClientIds(chunked(input, 1 << 20))).ids.length).toBe(1);
  });
});

describe('client IDs in a message file', () => {
  it('a control character inside one is an error at its path', () => {
    const r = validateMessage({ type: 2, time_to_live: 60, condition: { type: 2, client_ids: ['ok', 'a\u0000b'] }, data: { a: 'b' } });
    expect(r.errors).toEqual([expect.objectContaining({ path: 'condition.client_ids[1]', rule: 'client-id', message: expect.stringContaining('U+0000') })]);
  });
});
