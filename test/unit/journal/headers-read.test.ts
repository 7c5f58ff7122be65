// A directory's headers are read once per process while their files stay as they were (runs-dir.ts): a
// `--once` looks through them to find its key, then again for the run's family. What was read must never
// hide what a file says now: a file's time moves in steps of milliseconds, so its size counts too.
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anyHeader, listRunFiles } from '../../../src/journal/runs-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'pushctl-headers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = (once: string) => `${JSON.stringify({ t: 'header', format: 'pushctl-journal', v: 1, run_id: '20261201-000000-0001', once })}\n`;

describe('a header read before', () => {
  it('is read again once its file is written, within the same tick of the file clock too', () => {
    const path = join(dir, '20261201-000000-0001.jsonl');
    // Created, its header still to come: no journal yet.
    writeFileSync(path, '');
    const { mtime } = statSync(path);
    expect(anyHeader(listRunFiles(dir)[0]!)).toBeUndefined();
    writeFileSync(path, header('release-1'));
    utimesSync(path, mtime, mtime);
    expect(anyHeader(listRunFiles(dir)[0]!)?.once).toBe('release-1');
    writeFileSync(path, header('release-22'));
    utimesSync(path, mtime, mtime);
    expect(anyHeader(listRunFiles(dir)[0]!)?.once).toBe('release-22');
  });
});
