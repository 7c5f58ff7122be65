import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalWriter } from '../../../src/journal/writer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function journalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-writer-'));
  dirs.push(dir);
  return join(dir, 'run.jsonl');
}
const secretFilter = {
  scrub: (text: string) => text.replaceAll('s3cret', '***'),
  scrubBytes: (bytes: Buffer) => Buffer.from(bytes.toString('utf8').replaceAll('s3cret', '***'), 'utf8'),
};

describe('JournalWriter', () => {
  it('writes a batch record given as JSON bytes as one line, the same as the record written as JSON', () => {
    const path = journalPath();
    const writer = new JournalWriter(path, secretFilter);
    const ids = ['a', 'é"x', 'back\\slash', '日本'];
    writer.writeBatch(7, Buffer.from(JSON.stringify(ids), 'utf8'));
    writer.write({ t: 'batch', b: 7, ids });
    writer.writeBatch(8, Buffer.from('[]'));
    writer.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toEqual([JSON.stringify({ t: 'batch', b: 7, ids }), JSON.stringify({ t: 'batch', b: 7, ids }), '{"t":"batch","b":8,"ids":[]}', '']);
  });

  it('scrubs the secret from a batch record given as bytes', () => {
    const path = journalPath();
    const writer = new JournalWriter(path, secretFilter);
    writer.writeBatch(0, Buffer.from(JSON.stringify(['x-s3cret-y'])));
    writer.close();
    expect(readFileSync(path, 'utf8')).toBe('{"t":"batch","b":0,"ids":["x-***-y"]}\n');
  });

  it('writes a large batch whole (a thousand long IDs)', () => {
    const path = journalPath();
    const writer = new JournalWriter(path, secretFilter);
    const ids = Array.from({ length: 1000 }, (_, i) => `c${i.toString(16).padStart(255, '0')}`);
    writer.writeBatch(1, Buffer.from(JSON.stringify(ids)));
    writer.close();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ t: 'batch', b: 1, ids });
  });
});
