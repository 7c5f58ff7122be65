// A directory's headers are read once per process while their files stay as they were (runs-dir.ts): a
// `--once` looks through them to find its key, then again for the run's family. What was read must never
// hide what a file says now: a file's time moves in steps of milliseconds, so its size counts too.
import { mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resendsOf } from '../../../src/journal/read-run.js';
import { anyHeader, listRunFiles, listRunNames } from '../../../src/journal/runs-dir.js';

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

describe('a header read by path (as --once looks through a directory by its names)', () => {
  it('is read again once its file is written, within the same tick of the file clock too', () => {
    const path = join(dir, '20261201-000000-0002.jsonl');
    writeFileSync(path, header('release-3'));
    const { mtime } = statSync(path);
    expect(anyHeader(path)?.once).toBe('release-3');
    writeFileSync(path, header('release-33'));
    utimesSync(path, mtime, mtime);
    expect(anyHeader(path)?.once).toBe('release-33');
  });
});

describe('the journals of a directory by name (listRunNames)', () => {
  it('in listRunFiles order: newest start second first, and within one second by last write', () => {
    const folder = mkdtempSync(join(dir, 'names-'));
    const at = (name: string, seconds: number) => {
      writeFileSync(join(folder, name), header('x'));
      utimesSync(join(folder, name), seconds, seconds);
    };
    at('20261201-000000-000a.jsonl', 300);
    at('20261201-000000-000b.jsonl', 100);
    at('20261201-000001-0001.jsonl', 50);
    at('20261130-235959-ffff.jsonl', 400);
    // Not journals of ours: another name, a link.
    writeFileSync(join(folder, 'notes.jsonl'), '');
    symlinkSync(join(folder, '20261201-000000-000a.jsonl'), join(folder, '20261201-000002-0001.jsonl'));
    const ids = (runs: { id: string }[]) => runs.map((run) => run.id);
    expect(ids(listRunNames(folder))).toEqual(['20261201-000001-0001', '20261201-000000-000a', '20261201-000000-000b', '20261130-235959-ffff']);
    expect(ids(listRunNames(folder))).toEqual(ids(listRunFiles(folder)));
  });
});

describe("a run's family looked up twice in one process", () => {
  it('sees a resend written since, and a header written since its file was created', () => {
    const folder = mkdtempSync(join(dir, 'family-'));
    const journal = (id: string, parent?: string) => writeFileSync(join(folder, `${id}.jsonl`), `${JSON.stringify({ t: 'header', format: 'pushctl-journal', v: 1, run_id: id, started_at: `${id}Z`, app_id: 'app', host: '127.0.0.1', dry_run: false, argv: [], message: {}, ...(parent ? { parent } : {}) })}\n`);
    journal('20261201-000000-0001');
    expect(resendsOf([folder], '20261201-000000-0001')).toEqual([]);
    journal('20261201-000001-0002', '20261201-000000-0001');
    expect(resendsOf([folder], '20261201-000000-0001')).toEqual(['20261201-000001-0002']);
    // Created, its header still to come, then written.
    writeFileSync(join(folder, '20261201-000002-0003.jsonl'), '');
    expect(resendsOf([folder], '20261201-000000-0001')).toEqual(['20261201-000001-0002']);
    journal('20261201-000002-0003', '20261201-000000-0001');
    expect(resendsOf([folder], '20261201-000000-0001')).toEqual(['20261201-000001-0002', '20261201-000002-0003']);
  });
});
