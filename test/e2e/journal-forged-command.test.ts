// The resend command printed from a journal (docs/behaviour.md#trust): a journal from elsewhere is data, so a
// command built from one never names a host, a secret file or a config file on its word alone, however it
// was edited; pasted as printed, the secret goes nowhere the user's settings did not choose. Only a journal
// in the user's own runs directory, which no one else can change, vouches for its flags. The built binary
// against a scripted server on loopback that stands for a forger's host.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { shellWords } from '../helpers/shell-words.js';

const SECRET = 'forged-S3CR3T-41d2';
const RUN = '20261124-100000-f0f0';
let work: string;
let journals: string;
let forger: ScriptedServer;

beforeAll(async () => {
  forger = await startScriptedServer(() => ok('m-forger'));
});
afterAll(async () => {
  await forger.close();
});
beforeEach(() => {
  forger.requests.length = 0;
  work = mkdtempSync(join(tmpdir(), 'pushctl-forged-'));
  journals = join(work, 'journals');
  return () => rmSync(work, { recursive: true, force: true });
});

const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
  runCli(args, { env: cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals, ...extra }), cwd: work, timeout: 60_000 });

/**
 * A killed run's journal whose header was edited, handed to the user (a download): its destination and its
 * command line name the forger's host and another secret file. Returns its path.
 */
function forgedRun(fields: Record<string, unknown> = {}, records: string[] = []): string {
  const downloads = join(work, 'Downloads');
  mkdirSync(downloads, { recursive: true });
  const argv = ['send', '--base-url', forger.url, '--app-secret-file', '/home/someone/prod.secret', '-c', '/home/someone/pushctl.json', '--insecure', '--app-id', 'app', '--timeout', '5s', '--title', 'Hi'];
  const ids = ['f-1', 'f-2'];
  const header = {
    t: 'header', format: 'pushctl-journal', v: 1, run_id: RUN, started_at: '2026-11-24T10:00:00.000Z', version: 'x', pid: 999_999, app_id: 'app',
    host: new URL(forger.url).host, base_url: forger.url, dry_run: false, argv, message: { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Hi' } },
    recipients: ids.length, batches: 1, ...fields,
  };
  const path = join(downloads, `${RUN}.jsonl`);
  writeFileSync(path, `${[JSON.stringify(header), JSON.stringify({ t: 'batch', b: 0, ids }), ...records].join('\n')}\n`, { mode: 0o600 });
  return path;
}

type Shown = { run: { resend_command: string; left_out_of_command?: string[] } };

it('runs show leaves out what only the journal names: its host, its secret file, its config file, --insecure; and says so', async () => {
  const path = forgedRun();
  const shown = await cli(['runs', 'show', path, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const run = (JSON.parse(shown.stdout) as Shown).run;
  // The flags that choose among the user's own settings stay: the app, the timeout.
  expect(run.resend_command).toBe(`pushctl resend ${path} --app-id app --timeout 5s`);
  expect(run.left_out_of_command).toEqual([`--base-url ${forger.url}`, '--app-secret-file /home/someone/prod.secret', '-c /home/someone/pushctl.json', '--insecure']);

  const words = await cli(['runs', 'show', path]);
  expect(words.stdout).toContain(`pushctl resend ${path} --app-id app --timeout 5s\n`);
  expect(words.stdout).toContain(`its journal also names --base-url ${forger.url}, --app-secret-file /home/someone/prod.secret, -c /home/someone/pushctl.json, --insecure`);

  // Pasted as printed, it is refused (the user's settings point elsewhere) and the forger hears nothing.
  const [, ...args] = shellWords(run.resend_command);
  const pasted = await cli(args);
  expect(pasted.code, pasted.stderr).toBe(2);
  expect(forger.requests).toHaveLength(0);
  expect(`${pasted.stdout}${pasted.stderr}`).not.toContain(SECRET);
});

it('a host the user chose first-hand (PUSHCTL_BASE_URL names it too) stays in the command; the files still do not', async () => {
  const path = forgedRun();
  const shown = await cli(['runs', 'show', path, '--json'], { PUSHCTL_BASE_URL: forger.url });
  const run = (JSON.parse(shown.stdout) as Shown).run;
  expect(run.resend_command).toBe(`pushctl resend ${path} --base-url ${forger.url} --app-id app --timeout 5s`);
  expect(run.left_out_of_command).toEqual(['--app-secret-file /home/someone/prod.secret', '-c /home/someone/pushctl.json', '--insecure']);
});

it('a journal in the runs directory vouches for its flags, unless others can write that directory', async () => {
  const path = forgedRun();
  mkdirSync(journals, { mode: 0o700 });
  copyFileSync(path, join(journals, `${RUN}.jsonl`));
  const own = (JSON.parse((await cli(['runs', 'show', RUN, '--json'])).stdout) as Shown).run;
  expect(own.resend_command).toBe(`pushctl resend ${RUN} --base-url ${forger.url} --app-secret-file /home/someone/prod.secret -c /home/someone/pushctl.json --insecure --app-id app --timeout 5s`);
  expect(own.left_out_of_command).toBeUndefined();
  // Writable by others (no sticky bit): anyone could have put the journal there.
  chmodSync(journals, 0o777);
  const shared = (JSON.parse((await cli(['runs', 'show', RUN, '--json'])).stdout) as Shown).run;
  expect(shared.resend_command).toBe(`pushctl resend ${RUN} --app-id app --timeout 5s`);
});

it('a run stopped while reading its input: the printed command never names the input file only its journal names', async () => {
  const path = forgedRun({ recipients: null, batches: null, input: '/home/someone/.aws/credentials' }, ['{"t":"start","b":0,"a":1}', '{"t":"outcome","b":0,"a":1,"kind":"accepted","message_id":"m-1"}']);
  const run = (JSON.parse((await cli(['runs', 'show', path, '--json'])).stdout) as Shown & { run: { state: string } }).run;
  expect(run.state).toBe('incomplete');
  expect(run.resend_command).toBe(`pushctl resend ${path} --client-ids-file '<its client-ID file>' --app-id app --timeout 5s`);
  expect(run.left_out_of_command).toEqual(['--client-ids-file /home/someone/.aws/credentials', `--base-url ${forger.url}`, '--app-secret-file /home/someone/prod.secret', '-c /home/someone/pushctl.json', '--insecure']);
});
