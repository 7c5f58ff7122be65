// Reports that cannot be destroyed, journals that keep secrets out, and the retention policy (issue 10).
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { KEEP_DAYS, pruneRuns, RETENTION_MARK } from '../../../src/journal/retention.js';
import { cleanEnv, runCli } from '../../helpers/run-cli.js';
import { startScriptedServer } from '../../helpers/scripted-server.js';

const SECRET = 'retention-secret-91f0';
let dir: string;
let emu: Emulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-report-'));
  emu = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }], rate: 0 });
});
afterAll(async () => emu.close());

const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_APP_ID: 'app', ...extra });

describe('--report', () => {
  it('checking the path before sending never truncates an existing report; a failed run leaves it whole', async () => {
    writeFileSync(join(dir, 'keep.json'), '{"precious": true}\n');
    // The message is valid but the credentials are missing: the run stops after the report path is checked.
    const r = await runCli(['send', '--base-url', emu.url, '--all', '--title', 'x', '--report', 'keep.json'], { env: env({ PUSHCTL_APP_SECRET: '' }), cwd: dir });
    expect(r.code).toBe(6);
    expect(readFileSync(join(dir, 'keep.json'), 'utf8')).toBe('{"precious": true}\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('is written whole, mode 600, replacing a file that is no report of the run only with --force', async () => {
    writeFileSync(join(dir, 'r.json'), 'old');
    const args = ['send', '--base-url', emu.url, '--client-id', 'a,b', '--title', 'x', '--report', 'r.json'];
    const refused = await runCli(args, { env: env(), cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--report r.json exists and is not a report of this run');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe('old');
    const r = await runCli([...args, '--force'], { env: env(), cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).accepted[0].client_ids).toEqual(['a', 'b']);
    expect(statSync(join(dir, 'r.json')).mode & 0o777).toBe(0o600);
  });

  it('a secret the service echoes reaches neither the report nor the journal', async () => {
    const server = await startScriptedServer([{ status: 200, body: { status: 21005, message: `bad message from app with secret ${SECRET}` } }]);
    const journals = join(dir, 'echo-journals');
    try {
      const r = await runCli(['send', '--base-url', server.url, '--client-id', 'a', '--title', 'x', '--report', 'echo.json'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
      expect(r.code).toBe(4);
      const report = readFileSync(join(dir, 'echo.json'), 'utf8');
      expect(report).toContain('bad message from app with secret ***');
      const journal = readFileSync(join(journals, readdirSync(journals).find((f) => f.endsWith('.jsonl'))!), 'utf8');
      expect(journal).toContain('secret ***');
      for (const text of [report, journal, r.stdout, r.stderr]) expect(text).not.toContain(SECRET);
    } finally {
      await server.close();
    }
  });
});

describe('--journal and --no-journal', () => {
  it('--journal writes the file named, refuses to overwrite one, and --no-journal writes none', async () => {
    const args = ['send', '--base-url', emu.url, '--all', '--title', 'x'];
    const journals = join(dir, 'flag-journals');
    const first = await runCli([...args, '--journal', 'run.jsonl'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    expect(first.code).toBe(0);
    expect(readFileSync(join(dir, 'run.jsonl'), 'utf8').split('\n')[0]).toContain('"t":"header"');
    const again = await runCli([...args, '--journal', 'run.jsonl'], { env: env(), cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('a journal is never overwritten');
    const none = await runCli([...args, '--no-journal'], { env: env({ PUSHCTL_JOURNAL_DIR: join(dir, 'no-journals') }), cwd: dir });
    expect(none.code).toBe(0);
    expect(() => readdirSync(join(dir, 'no-journals'))).toThrow();
  });

  it('pushctl runs lists the runs of the journal directory, finished and --json', async () => {
    const journals = join(dir, 'list-journals');
    await runCli(['send', '--base-url', emu.url, '--all', '--title', 'x'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    await runCli(['dry-run', '--base-url', emu.url, '--client-id', 'a', '--title', 'x'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    const listed = await runCli(['runs', '--json'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    expect(listed.code).toBe(0);
    const doc = JSON.parse(listed.stdout) as { ok: boolean; exit_code: number; runs: { dry_run: boolean; state: string; app_id: string; summary: { recipients: { accepted: number } } }[] };
    expect(doc).toMatchObject({ ok: true, exit_code: 0 });
    expect(doc.runs.map((r) => [r.dry_run, r.state, r.app_id])).toEqual([[true, 'sent', 'app'], [false, 'sent', 'app']]);
    const human = await runCli(['runs'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    expect(human.stdout).toMatch(/RUN\s+STATE\s+ACCEPTED\s+LEFT\s+TITLE/);
    // Fits 80 columns, whatever the titles.
    for (const line of human.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const missing = await runCli(['runs', 'show', 'nope'], { env: env({ PUSHCTL_JOURNAL_DIR: journals }), cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pushctl runs');
  });
});

describe('retention', () => {
  /** The journals in `folder` (retention also keeps its own record of what it read there). */
  const runFiles = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();
  const age = (path: string, ageDays: number) => {
    const when = (Date.now() - ageDays * 86_400_000) / 1000;
    utimesSync(path, when, when);
  };
  const write = (folder: string, id: string, left: number, ageDays: number, extra = '') => {
    const path = join(folder, `${id}.jsonl`);
    const recipients = { total: 10, accepted: 10 - left, rejected: 0, unknown: left, not_sent: 0 };
    writeFileSync(path, `{"t":"header","format":"pushctl-journal","v":1,"run_id":"${id}"${extra}}\n{"t":"end","summary":{"batches":{},"recipients":${JSON.stringify(recipients)}}}\n`);
    age(path, ageDays);
  };

  it('keeps a run with recipients left at least 30 days, drops settled runs past the newest N, and everything past 30 days', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    write(folder, '20260101-000000-0001', 0, 1);
    write(folder, '20260101-000000-0002', 5, 2);
    write(folder, '20260101-000000-0003', 0, 3);
    write(folder, '20260101-000000-0004', 5, KEEP_DAYS + 1);
    write(folder, '20260101-000000-0009', 0, 0);
    pruneRuns(folder, Date.now(), 2);
    // All start in the same second, so newest is by last write: 0009 and 0001 are the newest two; of the
    // older ones the unsettled young 0002 stays, the settled 0003 and the 31-day-old 0004 go.
    expect(runFiles(folder)).toEqual(['20260101-000000-0001.jsonl', '20260101-000000-0002.jsonl', '20260101-000000-0009.jsonl']);
  });

  it('removes only pushctl journals: other files in the directory stay, however old, whatever their name', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    const others = {
      'notes.jsonl': '{"t":"header"}\n',
      'backup-of-run.jsonl': '{"t":"header","format":"pushctl-journal","v":1}\n',
      '20250101-000000-00aa.jsonl': '{"some":"other tool"}\n',
      '20250101-000000-00bb.jsonl': '',
      '20250101-000000-00cc.txt': 'x\n',
    };
    for (const [name, text] of Object.entries(others)) {
      writeFileSync(join(folder, name), text);
      age(join(folder, name), KEEP_DAYS + 400);
    }
    write(folder, '20250101-000000-0001', 0, KEEP_DAYS + 400);
    const removed = pruneRuns(folder, Date.now(), 1);
    expect(removed.map((p) => p.split('/').pop())).toEqual(['20250101-000000-0001.jsonl']);
    expect(readdirSync(folder).filter((name) => name !== RETENTION_MARK).sort()).toEqual(Object.keys(others).sort());
  });

  it('keeps a message to all devices or by condition that was not sent, or is in doubt, 30 days: its batches say so, it has no client IDs to count', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    const audience = (id: string, batch: 'accepted' | 'in_doubt' | 'not_sent', ageDays: number) => {
      const path = join(folder, `${id}.jsonl`);
      const batches = { total: 1, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 0, [batch]: 1 };
      const recipients = { total: 0, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 0 };
      writeFileSync(path, `{"t":"header","format":"pushctl-journal","v":1,"run_id":"${id}"}\n{"t":"end","summary":{"batches":${JSON.stringify(batches)},"recipients":${JSON.stringify(recipients)}}}\n`);
      age(path, ageDays);
    };
    audience('20260101-000000-0001', 'accepted', 1);
    audience('20260101-000000-0002', 'not_sent', 2);
    audience('20260101-000000-0003', 'in_doubt', 3);
    audience('20260101-000000-0004', 'accepted', 4);
    pruneRuns(folder, Date.now(), 1);
    expect(runFiles(folder)).toEqual(['20260101-000000-0001.jsonl', '20260101-000000-0002.jsonl', '20260101-000000-0003.jsonl']);
  });

  it('keeps a settled run that holds a --once key for 30 days, past the newest N (a CI re-run must find it)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    write(folder, '20260101-000000-0001', 0, 1);
    write(folder, '20260101-000000-0002', 0, 2, ',"once":"release-1.4"');
    write(folder, '20260101-000000-0003', 0, 3);
    write(folder, '20260101-000000-0004', 0, KEEP_DAYS + 1, ',"once":"release-1.3"');
    pruneRuns(folder, Date.now(), 1);
    expect(runFiles(folder)).toEqual(['20260101-000000-0001.jsonl', '20260101-000000-0002.jsonl']);
  });

  it('reads a run it kept no more, unless its run had not ended: a directory of kept runs costs each run end a listing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    // Runs of today, so that what decides is the record, not their age.
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    write(folder, `${today}-000003-0001`, 0, 0);
    write(folder, `${today}-000002-0002`, 0, 0, ',"once":"release-1.4"');
    // A run still sending: its header, no closing record yet.
    const running = join(folder, `${today}-000001-0003.jsonl`);
    writeFileSync(running, `{"t":"header","format":"pushctl-journal","v":1,"run_id":"${today}-000001-0003"}\n`);
    pruneRuns(folder, Date.now(), 1);
    expect(runFiles(folder)).toEqual([`${today}-000001-0003.jsonl`, `${today}-000002-0002.jsonl`, `${today}-000003-0001.jsonl`]);
    // The kept run rewritten without its key: a pass that read it again would remove it; its run had ended,
    // so the pass before decided for good.
    const kept = join(folder, `${today}-000002-0002.jsonl`);
    writeFileSync(kept, readFileSync(kept, 'utf8').replace(',"once":"release-1.4"', ''));
    // The running one ends with nothing left: it had not ended at the last pass, so it is read again, and removed.
    appendFileSync(running, '{"t":"end","summary":{"batches":{},"recipients":{"total":1,"accepted":1,"rejected":0,"in_doubt":0,"not_sent":0}}}\n');
    pruneRuns(folder, Date.now(), 1);
    expect(runFiles(folder)).toEqual([`${today}-000002-0002.jsonl`, `${today}-000003-0001.jsonl`]);
  });

  it('still removes a run past 30 days that an earlier pass kept', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    write(folder, '20260102-000000-0001', 0, 0);
    write(folder, '20260101-000000-0002', 0, 2, ',"once":"release-1.4"');
    const days = (n: number) => Date.now() + n * 86_400_000;
    pruneRuns(folder, days(0), 1);
    pruneRuns(folder, days(KEEP_DAYS - 3), 1);
    expect(runFiles(folder)).toEqual(['20260101-000000-0002.jsonl', '20260102-000000-0001.jsonl']);
    pruneRuns(folder, days(KEEP_DAYS - 1), 1);
    expect(runFiles(folder)).toEqual(['20260102-000000-0001.jsonl']);
  });

  it('removes a lock released over a day ago at a run end; once the directory is past the newest N, at most hourly', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    mkdirSync(join(folder, '.locks'));
    const released = (name: string) => {
      const path = join(folder, '.locks', name);
      writeFileSync(path, JSON.stringify({ run_id: '20260101-000000-0001', pid: 1, released: true }));
      age(path, 2);
    };
    const locks = () => readdirSync(join(folder, '.locks')).sort();
    const hours = (n: number) => Date.now() + n * 3_600_000;
    // Runs of today: a directory of few young runs needs no more than a listing to pass.
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    write(folder, `${today}-000001-0001`, 0, 0);
    released('run-a.1');
    pruneRuns(folder, hours(0), 1);
    expect(locks()).toEqual([]);
    write(folder, `${today}-000000-0002`, 0, 0, ',"once":"release-1.4"');
    released('run-b.1');
    pruneRuns(folder, hours(0), 1);
    expect(locks()).toEqual([]);
    released('run-c.1');
    pruneRuns(folder, hours(0.5), 1);
    expect(locks()).toEqual(['run-c.1']);
    pruneRuns(folder, hours(1.1), 1);
    expect(locks()).toEqual([]);
  });

  it.each([
    ['a directory', (path: string) => mkdirSync(path)],
    ['not JSON', (path: string) => writeFileSync(path, '{"before":')],
    ['of the wrong form', (path: string) => writeFileSync(path, '{"before":"2099","open":[],"locksAtMs":0}')],
    ['naming what is no run', (path: string) => writeFileSync(path, '{"before":"20991231-235959","open":[1],"locksAtMs":0}')],
  ])('its record of what it read, when %s, is not used: every run past the newest N is read', (_, make) => {
    const folder = mkdtempSync(join(tmpdir(), 'pushctl-retention-'));
    write(folder, '20260102-000000-0001', 0, 0);
    write(folder, '20260101-000000-0002', 0, 2);
    make(join(folder, RETENTION_MARK));
    pruneRuns(folder, Date.now(), 1);
    expect(runFiles(folder)).toEqual(['20260102-000000-0001.jsonl']);
  });
});
