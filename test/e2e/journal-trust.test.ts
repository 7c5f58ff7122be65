// What pushctl trusts in a journal (docs/behaviour.md#trust, #ownership): a journal is data, never settings;
// a --once key belongs to an app at a destination; another user's journal is no run of ours; a FIFO in the
// runs directory hangs nothing; journal fields never reach the terminal raw; a failed run leaves the working
// directory as it was. The built binary against the emulator and scripted servers on loopback.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const SECRET = 'trust-S3CR3T-77ab';
let work: string;
let journals: string;
let emulator: Emulator;
let other: ScriptedServer;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret: SECRET }, { id: 'prod', secret: SECRET }] });
  other = await startScriptedServer(() => ok('m-other'));
});
afterAll(async () => {
  await emulator.close();
  await other.close();
});
beforeEach(() => {
  emulator.clear();
  other.requests.length = 0;
  work = mkdtempSync(join(tmpdir(), 'pushctl-trust-'));
  journals = join(work, 'journals');
  return () => rmSync(work, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals, ...extra });
const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> => runCli(args, { env: env(extra), cwd: work, timeout: 60_000 });
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;
const ids = Array.from({ length: 30 }, (_, i) => `t-${i}`);

/** A killed run's journal, written as pushctl writes one: its plan, nothing sent. Returns its run id. */
function killedRun(runId: string, fields: Record<string, unknown> = {}): string {
  mkdirSync(journals, { recursive: true, mode: 0o700 });
  const header = {
    t: 'header', format: 'pushctl-journal', v: 1, run_id: runId, started_at: '2026-11-24T10:00:00.000Z', version: 'x', pid: 999_999, app_id: 'app',
    host: new URL(emulator.url).host, base_url: emulator.url, dry_run: false, argv: [], message: { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Trust' } },
    recipients: ids.length, batches: 3, ...fields,
  };
  const batches = [0, 1, 2].map((b) => JSON.stringify({ t: 'batch', b, ids: ids.slice(b * 10, b * 10 + 10) }));
  writeFileSync(join(journals, `${runId}.jsonl`), `${[JSON.stringify(header), ...batches].join('\n')}\n`, { mode: 0o600 });
  return runId;
}

describe('a resend goes where its run went, and the secret only where the settings point', () => {
  const cases: { name: string; args?: string[]; env?: Record<string, string>; config?: object; code: number; says: string[] }[] = [
    { name: 'nothing set: the default region is not where the run went', code: 2, says: ['went to http://127.0.0.1', 'region global (default)', '--base-url http://127.0.0.1'] },
    { name: 'env PUSHCTL_BASE_URL where the run went', env: { PUSHCTL_BASE_URL: '@emulator' }, code: 0, says: ["(the run's journal, as env PUSHCTL_BASE_URL)"] },
    { name: 'env PUSHCTL_BASE_URL elsewhere', env: { PUSHCTL_BASE_URL: '@other' }, code: 2, says: ['your settings send to http://127.0.0.1', '(env PUSHCTL_BASE_URL)', '--base-url'] },
    { name: 'a profile elsewhere', env: { PUSHCTL_PROFILE: 'india' }, config: { profiles: { india: { baseUrl: '@other' } } }, code: 2, says: ['profile india'] },
    { name: 'the config file elsewhere', config: { baseUrl: '@other' }, code: 2, says: ['.pushctlrc.json'] },
    { name: 'the flag chooses, whatever the environment says', args: ['--base-url', '@emulator'], env: { PUSHCTL_BASE_URL: '@other' }, code: 0, says: ['(flag --base-url)'] },
    { name: 'env PUSHCTL_APP_ID names another app', env: { PUSHCTL_BASE_URL: '@emulator', PUSHCTL_APP_ID: 'prod' }, code: 2, says: ['was sent as app app', 'your settings name app prod (env PUSHCTL_APP_ID)', '--app-id app'] },
    { name: 'the --app-id flag chooses the app', args: ['--app-id', 'prod'], env: { PUSHCTL_BASE_URL: '@emulator', PUSHCTL_APP_ID: 'app' }, code: 0, says: ['sending to'] },
  ];
  const fill = (text: string) => text.replace('@emulator', emulator.url).replace('@other', other.url);
  for (const c of cases) {
    it(c.name, async () => {
      const runId = killedRun('20261124-100000-aaaa');
      if (c.config) writeFileSync(join(work, '.pushctlrc.json'), fill(JSON.stringify(c.config)));
      const extra = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)]));
      const r = await cli(['resend', runId, ...(c.args ?? []).map(fill)], extra);
      expect(r.code, r.stderr).toBe(c.code);
      for (const text of c.says) expect(r.stderr).toContain(text);
      // The secret never went anywhere the settings did not choose.
      expect(other.requests).toHaveLength(0);
      const reached = emulator.messages(c.args?.includes('prod') ? 'prod' : 'app').flatMap((m) => (m.body as { condition: { client_ids: string[] } }).condition.client_ids);
      expect(reached).toEqual(c.code === 0 ? ids : []);
      expect(r.stderr).not.toContain('internal error');
    });
  }

  it('a journal edited to name another host never gets the secret: resend and resend --dry-run refuse, naming it', async () => {
    const runId = killedRun('20261124-100001-bbbb', { base_url: other.url, host: new URL(other.url).host });
    for (const args of [['resend', runId], ['resend', runId, '--dry-run']]) {
      const r = await cli(args, { PUSHCTL_BASE_URL: emulator.url });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`went to ${other.url}`);
    }
    expect(other.requests).toHaveLength(0);
  });

  it('resend --dry-run shows where it would send, and the setting that chose it', async () => {
    const runId = killedRun('20261124-100002-cccc');
    const r = await cli(['resend', runId, '--dry-run'], { PUSHCTL_BASE_URL: emulator.url });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`would send to ${emulator.url} (the run's journal, as env PUSHCTL_BASE_URL), app app`);
    const doc = json(await cli(['resend', runId, '--dry-run', '--json'], { PUSHCTL_BASE_URL: emulator.url }));
    expect(doc.destination).toEqual({ base_url: emulator.url, app_id: 'app', source: "the run's journal, as env PUSHCTL_BASE_URL" });
  });

  it('the first send went to a wrong PUSHCTL_BASE_URL: the printed resend, run with the fixed variable, says what differs and how to choose', async () => {
    writeFileSync(join(work, 'ids.txt'), ids.join('\n'));
    const wrong = 'http://127.0.0.1:9';
    const sent = await cli(['send', '--title', 'x', '--client-ids-file', 'ids.txt', '--app-id', 'app', '--max-attempts', '1', '--json'], { PUSHCTL_BASE_URL: wrong });
    expect(sent.code).toBe(5);
    const command = json(sent).resend_command as string;
    expect(command).toMatch(/^pushctl resend \S+ --app-id app$/);
    const fixed = await cli([...command.split(' ').slice(1)], { PUSHCTL_BASE_URL: emulator.url });
    expect(fixed.code).toBe(2);
    expect(fixed.stderr).toContain(`went to ${wrong}, but your settings send to ${emulator.url} (env PUSHCTL_BASE_URL)`);
    expect(fixed.stderr).toContain(`--base-url ${wrong}`);
    expect(fixed.stderr).not.toContain('flag --base-url');
    const chosen = await cli([...command.split(' ').slice(1), '--base-url', emulator.url], { PUSHCTL_BASE_URL: emulator.url });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stderr).toContain('(flag --base-url)');
    expect(emulator.messages('app').flatMap((m) => (m.body as { condition: { client_ids: string[] } }).condition.client_ids)).toEqual(ids);
  });
  it('the first send named an app the service refused (21002): with the app fixed in the environment, the resend names the flag that sends the rest as it', async () => {
    writeFileSync(join(work, 'ids.txt'), ids.join('\n'));
    const sent = await cli(['send', '--title', 'x', '--client-ids-file', 'ids.txt', '--json'], { PUSHCTL_BASE_URL: emulator.url, PUSHCTL_APP_ID: 'ap' });
    expect(sent.code).toBe(4);
    const command = json(sent).resend_command as string;
    const fixed = await cli([...command.split(' ').slice(1)], { PUSHCTL_BASE_URL: emulator.url, PUSHCTL_APP_ID: 'app' });
    expect(fixed.code).toBe(2);
    // Not only the way back to the refused app: the app the settings name, by the flag that chooses it.
    expect(fixed.stderr).toContain('to send the rest as app app, run it with --app-id app');
    const chosen = await cli([...command.split(' ').slice(1), '--app-id', 'app'], { PUSHCTL_BASE_URL: emulator.url, PUSHCTL_APP_ID: 'app' });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(emulator.messages('app').flatMap((m) => (m.body as { condition: { client_ids: string[] } }).condition.client_ids)).toEqual(ids);
  });
});

describe('--once belongs to a key, an app and a destination', () => {
  it('a rehearsal against the emulator never makes the real send a no-op: another app or another base URL sends', async () => {
    const base = ['send', '--title', 'Release 2.0', '--client-id', 'c1', '--once', 'release-2.0'];
    expect((await cli([...base, '--base-url', emulator.url, '--app-id', 'app'])).code).toBe(0);
    const skipped = await cli([...base, '--base-url', emulator.url, '--app-id', 'app', '--json']);
    expect(json(skipped)).toMatchObject({ skipped: true, state: 'skipped' });
    const otherApp = await cli([...base, '--base-url', emulator.url, '--app-id', 'prod', '--json']);
    expect(json(otherApp)).toMatchObject({ skipped: false, state: 'sent' });
    expect(emulator.messages('prod')).toHaveLength(1);
    const otherHost = await cli([...base, '--base-url', other.url, '--app-id', 'app', '--json']);
    expect(json(otherHost)).toMatchObject({ skipped: false, state: 'sent' });
    expect(other.requests).toHaveLength(1);
  });

  it('--once with --journal <file> is a usage error rather than a key looked for in the wrong place', async () => {
    const r = await cli(['send', '--title', 'x', '--client-id', 'c1', '--once', 'k', '--journal', 'run.jsonl', '--base-url', emulator.url, '--app-id', 'app']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--once finds earlier runs in the journal directory');
    expect(emulator.messages('app')).toHaveLength(0);
  });
});

const root = process.getuid?.() === 0;
if (!root) console.log('journal-trust: skipping the other-user journals: chown to nobody needs root');

describe('journals that are not ours to trust', () => {
  it.skipIf(!root)('a journal owned by another user is no run: runs does not list it, resend and --once do not believe it', async () => {
    const runId = killedRun('20261124-100003-dddd');
    // Planted by another user: a "resend" that claims every recipient accepted, and a finished --once run.
    const planted = (id: string, extra: object) => {
      const header = { t: 'header', format: 'pushctl-journal', v: 1, run_id: id, started_at: '2026-11-24T11:00:00.000Z', version: 'x', pid: 1, app_id: 'app', host: new URL(emulator.url).host, base_url: emulator.url, dry_run: false, argv: [], message: { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Trust' } }, recipients: ids.length, batches: 1, ...extra };
      const path = join(journals, `${id}.jsonl`);
      writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify({ t: 'batch', b: 0, ids })}\n{"t":"start","b":0,"a":1}\n{"t":"outcome","b":0,"a":1,"kind":"accepted","message_id":"fake"}\n{"t":"end","ended_at":"x","interrupted":false,"exit_code":0,"summary":{"batches":{"total":1,"accepted":1,"rejected":0,"unknown":0,"not_sent":0},"recipients":{"total":${ids.length},"accepted":${ids.length},"rejected":0,"unknown":0,"not_sent":0}}}\n`);
      chownSync(path, 65534, 65534);
    };
    planted('20261124-110000-eeee', { parent: runId });
    planted('20261124-110001-ffff', { once: 'planted-key', fingerprint: 'x' });
    const listed = json(await cli(['runs', '--json'])).runs as { run_id: string }[];
    expect(listed.map((r) => r.run_id)).toEqual([runId]);
    const shown = await cli(['runs', 'show', join(journals, '20261124-110000-eeee.jsonl')]);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('is owned by another user');
    const resent = await cli(['resend', runId, '--json'], { PUSHCTL_BASE_URL: emulator.url });
    expect(resent.code, resent.stderr).toBe(0);
    expect(emulator.messages('app').flatMap((m) => (m.body as { condition: { client_ids: string[] } }).condition.client_ids)).toEqual(ids);
  });

  it('a FIFO named like a journal hangs nothing: runs lists the others, --once sends', async () => {
    const runId = killedRun('20261124-100004-abab');
    execFileSync('mkfifo', [join(journals, '20261124-120000-0000.jsonl')]);
    const listed = await cli(['runs', '--json']);
    expect(listed.signal).toBeNull();
    expect((json(listed).runs as { run_id: string }[]).map((r) => r.run_id)).toEqual([runId]);
    const once = await cli(['send', '--title', 'x', '--client-id', 'c1', '--once', 'fifo', '--base-url', emulator.url, '--app-id', 'app']);
    expect(once.signal).toBeNull();
    expect(once.code, once.stderr).toBe(0);
    const shown = await cli(['runs', 'show', join(journals, '20261124-120000-0000.jsonl')]);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('is not a regular file');
  });

  it('a journal directory that is a file (the path of one journal, say) is named, never "no runs yet"', async () => {
    const runId = killedRun('20261124-100006-efef');
    const file = join(journals, `${runId}.jsonl`);
    for (const args of [['runs'], ['runs', '--json']]) {
      const listed = await cli(args, { PUSHCTL_JOURNAL_DIR: file });
      expect(listed.code, listed.stderr).toBe(6);
      expect(listed.stderr).toContain(`error: PUSHCTL_JOURNAL_DIR ${file} is a file, not a directory of journals`);
      expect(listed.stderr).toMatch(/^hint: set PUSHCTL_JOURNAL_DIR to the directory that holds the journals; pushctl runs show <file> reads one journal$/m);
      expect(listed.stderr).not.toContain('no runs yet');
    }
  });

  it('terminal escapes in a journal never reach the terminal raw', async () => {
    const runId = killedRun('20261124-100005-cdcd', { started_at: '\u001b[2J2026', app_id: '\u001b]0;owned\u0007app', host: 'h\u001b[31mred', once: 'k\u001b[1m' });
    const shown = await cli(['runs', 'show', runId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toContain('\u001b');
    expect(shown.stdout).toContain('[2J2026');
    const listed = await cli(['runs']);
    expect(listed.stdout).not.toContain('\u001b');
  });
});

describe('no file the user did not ask for', () => {
  it('a failed send and a failed resend leave the working directory as it was, and say how to get a report', async () => {
    writeFileSync(join(work, 'ids.txt'), ids.join('\n'));
    const before = readdirSync(work).sort();
    const sent = await cli(['send', '--title', 'x', '--client-ids-file', 'ids.txt', '--app-id', 'app', '--base-url', 'http://127.0.0.1:9', '--max-attempts', '1']);
    expect(sent.code).toBe(5);
    const runId = (json(await cli(['runs', '--json'])).runs as { run_id: string }[])[0]!.run_id;
    expect(sent.stderr).toContain(`a report of every recipient: pushctl runs show ${runId} --report report.json`);
    const resent = await cli(['resend', runId, '--base-url', 'http://127.0.0.1:9', '--max-attempts', '1']);
    expect(resent.code).toBe(5);
    expect(readdirSync(work).filter((f) => f !== 'journals').sort()).toEqual(before);
    // The report on demand: written once; replaced only when it is this run's report, or with --force.
    expect((await cli(['runs', 'show', runId, '--report', 'report.json'])).code).toBe(0);
    expect((await cli(['runs', 'show', runId, '--report', 'report.json'])).code).toBe(0);
    writeFileSync(join(work, 'notes.json'), 'mine');
    const refused = await cli(['runs', 'show', runId, '--report', 'notes.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect((await cli(['runs', 'show', runId, '--report', 'notes.json', '--force'])).code).toBe(0);
  });
});
