// The code-cache loader's checks: a cache is offered to V8 only for the exact source it was made from
// (V8 itself compares lengths only), and the caches the build writes are accepted by this Node.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { ISLAND_HEAD, cacheFileBytes, cacheFor } from '../../../src/islands/load-island.js';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pushctl-island-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function island(name: string, source: string, cache?: Buffer): { file: string; source: Buffer } {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, source);
  if (cache) writeFileSync(`${file}.v8`, cache);
  return { file, source: Buffer.from(source) };
}

describe('cacheFor', () => {
  it('gives back the data stored for the same source', () => {
    const data = Buffer.from('v8-data');
    const { file, source } = island('same', 'module.exports = 1;', cacheFileBytes(Buffer.from('module.exports = 1;'), data));
    expect(cacheFor(file, source)).toEqual(data);
  });

  it('offers nothing for a source of the same length with other bytes, as after an edit', () => {
    const { file, source } = island('edited', 'module.exports = 2;', cacheFileBytes(Buffer.from('module.exports = 1;'), Buffer.from('v8-data')));
    expect(cacheFor(file, source)).toBeUndefined();
  });

  it('offers nothing when the cache file is missing, empty or cut short', () => {
    expect(cacheFor(island('missing', 'x;').file, Buffer.from('x;'))).toBeUndefined();
    expect(cacheFor(island('empty', 'x;', Buffer.alloc(0)).file, Buffer.from('x;'))).toBeUndefined();
    const whole = cacheFileBytes(Buffer.from('a longer source;'), Buffer.from('data'));
    expect(cacheFor(island('short', 'a longer source;', whole.subarray(0, 10)).file, Buffer.from('a longer source;'))).toBeUndefined();
  });
});

describe('the code cache the build writes', () => {
  // Run through `npm test`, which builds first; V8 would reject data from another version or other flags.
  it.each(['main', 'commands/send', 'commands/validate'])('is accepted by V8 for dist/%s.cjs', (name) => {
    const file = join(DIST, `${name}.cjs`);
    const source = readFileSync(file);
    const cachedData = cacheFor(file, source);
    expect(cachedData, `${name}.cjs.v8 missing or made from another source: run npm run build`).toBeDefined();
    const code = source.toString('utf8');
    expect(code.startsWith(ISLAND_HEAD), 'the build wraps islands as the loader expects').toBe(true);
    const script = new Script(code, { filename: `pushctl/dist/${name}.cjs`, cachedData });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('names no directory of the machine that built it', () => {
    for (const name of ['main', 'commands/send']) expect(readFileSync(join(DIST, `${name}.cjs.v8`)).includes(DIST)).toBe(false);
  });
});
