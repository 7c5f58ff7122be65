// The code cache is an optimisation only: a package whose caches V8 refuses (made by another Node.js
// version) or that the loader refuses (made from other bytes) must run exactly as one without them.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Script } from 'node:vm';
import { cacheFor } from '../../src/islands/load-island.js';
import { cleanEnv } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let copy: string;

/** Every cache file under `dir`. */
function caches(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return caches(path);
    return name.endsWith('.cjs.v8') ? [path] : [];
  });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'pushctl-cache-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  writeFileSync(join(copy, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function cli(args: string[]) {
  return spawnSync(process.execPath, [join(copy, 'bin', 'pushctl.cjs'), ...args], { cwd: copy, env: cleanEnv({ HOME: copy }) as NodeJS.ProcessEnv, encoding: 'utf8' });
}

describe('a package whose code cache cannot be used', () => {
  it('runs as usual when V8 refuses the data (another version: its version hash changed)', () => {
    const files = caches(join(copy, 'dist'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      // The loader's header (the source's length), the source, then V8's data: magic number, then version hash.
      const v8 = 4 + bytes.readUInt32LE(0);
      bytes.writeUInt32LE((bytes.readUInt32LE(v8 + 4) ^ 0xffffffff) >>> 0, v8 + 4);
      writeFileSync(file, bytes);
    }
    const main = join(copy, 'dist', 'main.cjs');
    const source = readFileSync(main);
    expect(new Script(source.toString('utf8'), { filename: 'pushctl/dist/main.cjs', cachedData: cacheFor(main, source) }).cachedDataRejected).toBe(true);
    const r = cli(['validate', '-f', 'message.json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('valid');
    expect(cli(['--version']).stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('runs as usual when an island was changed after its cache was made', () => {
    const island = join(copy, 'dist', 'commands', 'validate.cjs');
    // Same length, other bytes (the line break before the wrapper's closing brace becomes a space): V8
    // alone, which compares lengths only, would take the stale data.
    const text = readFileSync(island, 'utf8');
    expect(text.endsWith('\n})\n')).toBe(true);
    writeFileSync(island, `${text.slice(0, -4)} })\n`);
    expect(cacheFor(island, readFileSync(island))).toBeUndefined();
    const r = cli(['validate', '-f', 'message.json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('valid');
  });
});
