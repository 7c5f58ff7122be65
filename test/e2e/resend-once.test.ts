// `pushctl resend` and `--once` end to end (docs/behaviour.md#resend, docs/behaviour.md#once): the built binary against a scripted server and
// the emulator, journals read back with `pushctl runs`.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processStartTicks } from '../../src/journal/process-start.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const SECRET = 'resend-once-S3CR3T-1a2b';

const bench = journalBench('pushctl-resend-', SECRET);

const cli = (args: string[], cwd = bench.work): Promise<CliResult> => bench.cli(args, { cwd });
const idsOf = (server: ScriptedServer, from = 0) => server.requests.slice(from).flatMap((r) => (JSON.parse(r.body) as { condition: { client_ids?: string[] } }).condition.client_ids ?? []);
const titlesOf = (server: ScriptedServer, from = 0) => server.requests.slice(from).map((r) => (JSON.parse(r.body) as { notification: { title: string } }).notification.title);
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;
const ids = Array.from({ length: 2500 }, (_, i) => `r-${String(i).padStart(4, '0')}`);

describe('pushctl resend', () => {
  it("sends only what was certainly not sent, with the journal's own message, whatever the message file says now and wherever it runs", async () => {
    writeFileSync(join(bench.work, 'msg.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Original' } }));
    writeFileSync(join(bench.work, 'ids.txt'), ids.join('\n'));
    // Batch 0 accepted; batch 1 a gateway's 503 (not processed; --max-attempts 1: not retried); batch 2 a reset (in doubt).
    const first = await startScriptedServer((r) => (r.body.includes('"r-1000"') ? { status: 503, body: '' } : r.body.includes('"r-2000"') ? { action: 'reset' } : ok('m-0')));
    try {
      const sent = await cli(['send', '-f', 'msg.json', '--client-ids-file', 'ids.txt', '--base-url', first.url, '--app-id', 'app', '--max-attempts', '1', '--concurrency', '1', '--json']);
      expect(sent.code).toBe(7);
      const doc = json(sent);
      const runId = doc.run_id as string;
      // The settings flags come along: a resend sends only where the settings in force point.
      const flags = `--base-url ${first.url} --app-id app`;
      expect(doc).toMatchObject({ resend_command: `pushctl resend ${runId} ${flags}`, in_doubt: 500, include_in_doubt_command: `pushctl resend ${runId} ${flags} --include-in-doubt` });
    } finally {
      await first.close();
    }
    const runId = (json(await cli(['runs', '--json'])).runs as { run_id: string }[])[0]!.run_id;

    // The message file changes, and the resend runs from a subdirectory with a msg.json of its own.
    writeFileSync(join(bench.work, 'msg.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Changed' } }));
    mkdirSync(join(bench.work, 'sub'));
    writeFileSync(join(bench.work, 'sub', 'msg.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Other' } }));
    const second = await startScriptedServer(() => ok('m-resend'));
    try {
      const preview = await cli(['resend', runId, '--dry-run', '--base-url', second.url, '--json'], join(bench.work, 'sub'));
      expect(json(preview)).toMatchObject({ would_send: true, recipients: 1000, not_sent: 1000, in_doubt: 500, client_ids: ids.slice(1000, 2000) });
      expect(second.requests).toHaveLength(0);

      const resend = await cli(['resend', runId, '--base-url', second.url], join(bench.work, 'sub'));
      expect(resend.code, resend.stderr).toBe(0);
      expect(idsOf(second)).toEqual(ids.slice(1000, 2000));
      expect(titlesOf(second)).toEqual(['Original']);
      // The in-doubt batch is still in doubt, and said so apart from the command that would include it.
      expect(resend.stderr).toContain('500 recipients in doubt');

      // The two runs name each other.
      const child = (json(await cli(['runs', '--json'])).runs as { run_id: string; parent?: string }[])[0]!;
      expect(child.parent).toBe(runId);
      expect((await cli(['runs', 'show', runId])).stdout).toContain(`resent by   run ${child.run_id}`);
      expect((await cli(['runs', 'show', child.run_id])).stdout).toContain(`resends     run ${runId}`);

      // Resending the first run again sends nothing twice: what it and its resend left is the in-doubt batch only.
      const again = await cli(['resend', runId, '--base-url', second.url, '--json']);
      expect(again.code).toBe(0);
      expect(json(again)).toMatchObject({ would_send: false, not_sent: 0, in_doubt: 500 });
      expect(second.requests).toHaveLength(1);
      // The flag's name before 0.3 still works, unlisted.
      const old = json(await cli(['resend', runId, '--dry-run', '--base-url', second.url, '--include-unknown', '--json']));
      expect(old).toMatchObject({ would_send: true, recipients: 500, client_ids: ids.slice(2000) });
      expect((await cli(['resend', '--help'])).stdout).not.toContain('--include-unknown');
      // The preview with the flag says the in-doubt ones are in, never to add the flag it was given.
      const withDoubt = await cli(['resend', runId, '--dry-run', '--base-url', second.url, '--include-in-doubt']);
      expect(withDoubt.stderr).toContain('would resend run');
      expect(withDoubt.stderr).toContain('500 recipients in doubt, included by --include-in-doubt');
      expect(withDoubt.stderr).not.toContain('add --include-in-doubt');
      const included = await cli(['resend', runId, '--base-url', second.url, '--include-in-doubt']);
      expect(included.code, included.stderr).toBe(0);
      expect(idsOf(second, 1)).toEqual(ids.slice(2000));
      expect(json(await cli(['resend', runId, '--include-in-doubt', '--json']))).toMatchObject({ would_send: false, not_sent: 0, in_doubt: 0 });
    } finally {
      await second.close();
    }
  });

  it('--client-ids-file <journal> takes the not-sent IDs only, and says how many in doubt it left out', async () => {
    writeFileSync(join(bench.work, 'ids.txt'), ids.join('\n'));
    const server = await startScriptedServer((r) => (r.index === 1 ? { status: 503, body: '' } : r.index === 2 ? { action: 'reset' } : ok()));
    try {
      const first = await cli(['send', '--title', 'T', '--client-ids-file', 'ids.txt', '--base-url', server.url, '--app-id', 'app', '--concurrency', '1', '--max-attempts', '1', '--json']);
      expect(first.code).toBe(7);
      const journal = json(first).journal as string;
      const again = await cli(['validate', '--title', 'T', '--client-ids-file', journal, '--json']);
      expect(again.code).toBe(0);
      const notes = (json(again).notes as { message: string }[]).map((n) => n.message).join('\n');
      expect(notes).toContain('read the 1000 client IDs left to send');
      expect(notes).toContain('left out 500 in doubt');
      expect((json(again).body as { condition: { client_ids: string[] } }).condition.client_ids).toEqual(ids.slice(1000, 2000));
    } finally {
      await server.close();
    }
  });

  it('refuses a run that is still running, and a path that is no journal', async () => {
    mkdirSync(bench.journals, { recursive: true });
    const path = join(bench.journals, '20261124-000000-abcd.jsonl');
    const header = { t: 'header', format: 'pushctl-journal', v: 1, run_id: '20261124-000000-abcd', started_at: '2026-11-24T00:00:00.000Z', version: 'x', pid: process.pid, pid_start: processStartTicks('self'), app_id: 'app', host: 'h', base_url: 'http://127.0.0.1:1', dry_run: false, argv: [], message: { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'T' } }, recipients: 0, batches: 1 };
    writeFileSync(path, `${JSON.stringify(header)}\n{"t":"batch","b":0,"ids":[]}\n`);
    const running = await cli(['resend', '20261124-000000-abcd']);
    expect(running.code).toBe(2);
    expect(running.stderr).toContain('still running');
    writeFileSync(join(bench.work, 'notes.jsonl'), 'hello\n');
    const notJournal = await cli(['resend', 'notes.jsonl']);
    expect(notJournal.code).toBe(2);
    expect(notJournal.stderr).toContain('not a pushctl run journal');
  });
});

describe('send --once <key>', () => {
  const send = (title: string, key: string, extra: string[] = []) => cli(['send', '--all', '--title', title, '--base-url', bench.emulator.url, '--app-id', 'app', '--once', key, '--json', ...extra]);

  it('finished: the earlier run and its message_ids, nothing sent, exit 0; another message under the key: exit 2 naming both', async () => {
    const first = await send('Release 1.4', 'release-1.4');
    expect(first.code, first.stderr).toBe(0);
    const again = await send('Release 1.4', 'release-1.4');
    expect(again.code, again.stderr).toBe(0);
    expect(json(again)).toMatchObject({ skipped: true, run_id: json(first).run_id, message_ids: json(first).message_ids, audience: 'all devices' });
    expect(bench.emulator.messages('app')).toHaveLength(1);
    const human = await cli(['send', '--all', '--title', 'Release 1.4', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', 'release-1.4']);
    expect(human.stderr).toContain(`already done: --once release-1.4 matches run ${json(first).run_id as string}`);
    expect(human.stdout.trim()).toBe((json(first).message_ids as string[])[0]);

    const other = await send('Release 1.5', 'release-1.4');
    expect(other.code).toBe(2);
    expect((json(other).error as { message: string }).message).toContain(json(first).run_id as string);
    expect(bench.emulator.messages('app')).toHaveLength(1);
    // A dry run's key is its own: it does not stand for a send.
    const dry = await cli(['dry-run', '--all', '--title', 'Release 1.4', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', 'release-1.4', '--json']);
    expect(json(dry)).toMatchObject({ skipped: false, dry_run: true });
  });

  it('a key whose run the service refused is not "already done": exit 4, as that run, and nothing sent again', async () => {
    writeFileSync(join(bench.work, 'ids.txt'), ids.slice(0, 1500).join('\n'));
    const server = await startScriptedServer(() => ({ status: 200, body: { status: 21005, message: 'message illegal' } }));
    const send = (extra: string[] = []) => cli(['send', '--title', 'Refused', '--client-ids-file', 'ids.txt', '--base-url', server.url, '--app-id', 'app', '--once', 'refused', ...extra]);
    try {
      const first = await send(['--json']);
      expect(first.code, first.stderr).toBe(4);
      const again = await send(['--json']);
      expect(again.code, again.stderr).toBe(4);
      expect(json(again)).toMatchObject({ ok: false, skipped: true, run_id: json(first).run_id });
      const human = await send();
      expect(human.code).toBe(4);
      expect(human.stderr).not.toContain('✓');
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it("a key whose run a resume continued answers with the family's verdict, whichever of the two it finds first", async () => {
    writeFileSync(join(bench.work, 'ids.txt'), ids.slice(0, 1500).join('\n'));
    // First: batch 0 accepted, batch 1 a reset (in doubt), batch 2 a 503 (not sent); afterwards every answer ok.
    let faults = true;
    const server = await startScriptedServer((r) => (faults && r.body.includes('"r-1000"') ? { status: 503, body: '' } : faults && r.body.includes('"r-0500"') ? { action: 'reset' } : ok('m-0')));
    const send = () => cli(['send', '--title', 'Resumed', '--client-ids-file', 'ids.txt', '--base-url', server.url, '--app-id', 'app', '--once', 'k', '--max-attempts', '1', '--concurrency', '1', '--batch-size', '500', '--json']);
    try {
      const firstRun = await send();
      expect(firstRun.code, firstRun.stderr).toBe(7);
      // The first run then reads as killed: its closing record gone (its pid has exited).
      const firstId = json(firstRun).run_id as string;
      const firstPath = join(bench.journals, `${firstId}.jsonl`);
      writeFileSync(firstPath, readFileSync(firstPath, 'utf8').trim().split('\n').slice(0, -1).join('\n') + '\n');
      // The resume sends batch 2, all accepted: only the in-doubt batch is left, which --once never resends.
      // The key is partly sent, and the resume says so as the next re-run does (exit 7).
      faults = false;
      const resumed = await send();
      expect(resumed.code, resumed.stderr).toBe(7);
      expect(json(resumed)).toMatchObject({ state: 'partly_sent', run_state: 'partly_sent', attempt: { state: 'sent' }, in_doubt: 500 });
      expect(idsOf(server, 3)).toEqual(ids.slice(1000, 1500));
      // Whichever of the family a later look finds first (a waiter can find the first run before its resume
      // exists), the answer is the family's: its verdict, naming the resume.
      const resumeId = json(resumed).run_id as string;
      const older = `${firstId.slice(0, 9)}000000-0000`;
      const text = readFileSync(join(bench.journals, `${resumeId}.jsonl`), 'utf8').replaceAll(resumeId, older);
      rmSync(join(bench.journals, `${resumeId}.jsonl`));
      writeFileSync(join(bench.journals, `${older}.jsonl`), text, { mode: 0o600 });
      const again = await send();
      expect(again.code, again.stderr).toBe(7);
      expect(json(again)).toMatchObject({ skipped: true, run_id: older, run_state: 'partly_sent', in_doubt: 500 });
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  // A key that is no plain word is quoted where it is named: `--once --release 2 matches run` read as flags.
  it('names a key that is no plain word quoted, as given', async () => {
    const key = '--release 2';
    const first = await cli(['send', '--all', '--title', 'Quoted', '--base-url', bench.emulator.url, '--app-id', 'app', `--once=${key}`]);
    expect(first.code, first.stderr).toBe(0);
    const again = await cli(['send', '--all', '--title', 'Quoted', '--base-url', bench.emulator.url, '--app-id', 'app', `--once=${key}`]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already done: --once "--release 2" matches run ');
  });

  it('finds its run among hundreds of journals', async () => {
    const target = await send('Needle', 'needle');
    expect(target.code).toBe(0);
    const [file] = readdirSync(bench.journals).filter((f) => f.endsWith('.jsonl'));
    const text = readFileSync(join(bench.journals, file!), 'utf8');
    for (let i = 0; i < 300; i++) {
      const id = `20250101-000000-${i.toString(16).padStart(4, '0')}`;
      writeFileSync(join(bench.journals, `${id}.jsonl`), text.replace(/"run_id":"[^"]+"/, `"run_id":"${id}"`).replace('"once":"needle"', `"once":"hay-${i}"`));
    }
    const again = await send('Needle', 'needle');
    expect(json(again)).toMatchObject({ skipped: true, run_id: json(target).run_id });
  });

  it('needs the journal', async () => {
    const r = await send('x', 'k', ['--no-journal']);
    expect(r.code).toBe(2);
    expect((json(r).error as { message: string }).message).toContain('--once needs the run journal');
  });
});

describe('pushctl runs: one reader, one answer', () => {
  it('an --all or condition run shows its audience in words, never "0 recipients"', async () => {
    expect((await cli(['send', '--all', '--title', 'Everyone', '--base-url', bench.emulator.url, '--app-id', 'app'])).code).toBe(0);
    expect((await cli(['send', '--country', 'gb', '--language', 'en', '--title', 'Britons', '--base-url', bench.emulator.url, '--app-id', 'app'])).code).toBe(0);
    const runs = json(await cli(['runs', '--json'])).runs as { audience: string; title: string }[];
    expect(runs.map((r) => [r.title, r.audience])).toEqual([['Britons', 'condition: country GB, language en'], ['Everyone', 'all devices']]);
    const table = (await cli(['runs'])).stdout;
    expect(table).toMatch(/sent\s+condition\s+-\s+Britons/);
    expect(table).toMatch(/sent\s+all devices\s+-\s+Everyone/);
    expect(table).not.toContain('0/0');
  });

  it('a sent journal with garbage appended is sent in runs and in runs show', async () => {
    const sent = await cli(['send', '--all', '--title', 'G', '--base-url', bench.emulator.url, '--app-id', 'app', '--json']);
    appendFileSync(json(sent).journal as string, 'garbage that is not a record\n{"t":"start"');
    const listed = (json(await cli(['runs', '--json'])).runs as { state: string }[])[0]!;
    const shown = json(await cli(['runs', 'show', json(sent).run_id as string, '--json'])).run as { state: string };
    expect([listed.state, shown.state]).toEqual(['sent', 'sent']);
  });

  it('a killed run whose pid now belongs to another process is killed, not running', async () => {
    mkdirSync(bench.journals, { recursive: true });
    const header = { t: 'header', format: 'pushctl-journal', v: 1, run_id: '20261124-000001-beef', started_at: '2026-11-24T00:00:01.000Z', version: 'x', pid: process.pid, pid_start: 1, app_id: 'app', host: 'h', base_url: 'http://127.0.0.1:1', dry_run: false, argv: [], message: { type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Reused' } }, recipients: 1, batches: 1 };
    writeFileSync(join(bench.journals, '20261124-000001-beef.jsonl'), `${JSON.stringify(header)}\n{"t":"batch","b":0,"ids":["a"]}\n`);
    const shown = json(await cli(['runs', 'show', '20261124-000001-beef', '--json'])).run as { state: string; resend_command?: string };
    expect(shown).toMatchObject({ state: 'killed', resend_command: 'pushctl resend 20261124-000001-beef' });
  });

  const root = process.getuid?.() === 0;
  it.skipIf(!root)('a read-only file system is named as such (EROFS), not ENOENT', async () => {
    const ro = mkdtempSync(join(tmpdir(), 'pushctl-ro-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', ro]);
    try {
      const r = await runCli(['send', '--all', '--title', 'x', '--base-url', bench.emulator.url, '--app-id', 'app'], { env: cleanEnv({ HOME: bench.work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: join(ro, 'runs') }), cwd: bench.work });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('EROFS');
      expect(bench.emulator.messages('app')).toHaveLength(0);
    } finally {
      execFileSync('umount', ['-l', ro]);
      rmSync(ro, { recursive: true, force: true });
    }
  });
});
