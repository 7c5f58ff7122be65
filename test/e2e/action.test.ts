// The GitHub Action run as the runner runs it: `node action/index.js` (the committed bundle) with its inputs
// as INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and GITHUB_ACTIONS=true.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { readJournal } from '../../src/journal/reader.js';
import { cleanEnv, runProcess } from '../helpers/run-cli.js';
import { ok, startScriptedServer } from '../helpers/scripted-server.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const SECRET = 'action-S3CR3T-77ab1c';
const APP = 'act-app';

let emulator: Emulator;
let work: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.clear();
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-'));
  return () => rmSync(work, { recursive: true, force: true });
});

interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

function runAction(inputs: Record<string, string>, env: Record<string, string> = {}, onSpawn?: (child: import('node:child_process').ChildProcess) => void): Promise<StepRun> {
  const outputFile = join(work, 'github-output');
  const summaryFile = join(work, 'step-summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const inputEnv = Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]));
  const childEnv = cleanEnv({ HOME: work, XDG_CONFIG_HOME: join(work, '.config'), GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work, GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, ...inputEnv, ...env });
  return runProcess(process.execPath, [ACTION], { cwd: work, env: childEnv, ...(onSpawn ? { onSpawn } : {}) }).then(({ code, stdout, stderr }) => ({
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
  }));
}

const MESSAGE = '{\n  "type": 1,\n  "time_to_live": 3600,\n  "condition": { "type": 0 },\n  "notification": { "title": "Version {{version}}", "desc": "{{notes}}" }\n}\n';
const target = () => ({ 'base-url': emulator.url, 'app-id': APP, 'app-secret': SECRET });

/** The secret appears only in the mask command, and in no file the step wrote. */
function expectSecretOnlyMasked(run: StepRun): void {
  expect(run.stdout.split('\n').filter((l) => l.includes(SECRET))).toEqual([`::add-mask::${SECRET}`]);
  expect(run.stdout.indexOf('::add-mask::')).toBe(0);
  expect(run.stderr).not.toContain(SECRET);
  for (const name of readdirSync(work, { recursive: true }) as string[]) {
    const text = readFileSync(join(work, name), 'utf8');
    expect(text, name).not.toContain(SECRET);
  }
}

describe('the pushctl GitHub Action', () => {
  it('sends: outputs, job summary, exit 0, secret masked first and nowhere else', async () => {
    writeFileSync(join(work, 'release.json'), MESSAGE);
    const run = await runAction({ file: 'release.json', vars: 'version=2.0\nnotes=Faster, better\n', ...target(), report: 'report.json' });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const [message] = emulator.messages(APP);
    expect(message!.body).toMatchObject({ notification: { title: 'Version 2.0', desc: 'Faster, better' } });
    expect(message!.delivered).toBe(true);
    expect(JSON.parse(run.outputs['message-ids']!)).toEqual([message!.message_id]);
    // An --all message has no client IDs to count: the counts stay numbers, the audience is its own output.
    expect(run.outputs).toMatchObject({ 'exit-code': '0', accepted: '0', audience: 'all devices', rejected: '0', 'in-doubt': '0', 'not-sent': '0', report: 'report.json', skipped: 'false', state: 'sent' });
    expect(run.outputs['run-id']).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(run.summary).toContain('## pushctl send: sent\n');
    expect(run.summary).toContain(`\`${message!.message_id}\``);
    expect(run.summary).toMatch(/\| accepted \| 1 \| all devices \|/);
    expect(run.stdout).not.toContain('::error');
    expectSecretOnlyMasked(run);
  });

  it('dry-run: the service checks it, nothing is delivered', async () => {
    writeFileSync(join(work, 'release.json'), MESSAGE);
    const run = await runAction({ file: 'release.json', vars: 'version=2.0\nnotes=x', ...target(), 'dry-run': 'true' });
    expect(run.code, run.stderr).toBe(0);
    const [message] = emulator.messages(APP);
    expect(message!.dry_run).toBe(true);
    expect(message!.delivered).toBe(false);
    expect(run.summary).toContain('## pushctl dry-run: sent\n');
    expectSecretOnlyMasked(run);
  });

  it('an invalid file: annotations at the offending values, nothing sent, the step fails with exit 3', async () => {
    writeFileSync(join(work, 'bad.json'), '{\n  "type": 1,\n  "time_to_live": "3600",\n  "condition": { "type": 0 },\n  "notification": { "titel": "Hi" }\n}\n');
    const run = await runAction({ file: 'bad.json', ...target() });
    expect(run.code).toBe(3);
    expect(emulator.messages(APP)).toEqual([]);
    expect(run.stderr).toContain('::error file=bad.json,line=3,col=19,title=pushctl%3A type::time_to_live: must be a whole number');
    expect(run.stderr).toMatch(/::error file=bad\.json,line=5,col=\d+,title=pushctl%3A unknown-field::notification\.titel: unknown field "titel"/);
    expect(run.stdout).toMatch(/^::error title=pushctl::pushctl exited 3, the message is invalid; nothing was sent/m);
    expect(run.outputs['exit-code']).toBe('3');
    expect(run.summary).toContain('failed (exit 3)');
    expectSecretOnlyMasked(run);
  });

  it('a partial failure: exit 7, the summary carries the resend command for what is left', async () => {
    // The first batch is accepted; the second gets no answer (connection reset), so it is in doubt.
    const server = await startScriptedServer((request) => (request.body.includes('"id-0000"') ? ok('msg-first') : { action: 'reset' }));
    try {
      writeFileSync(join(work, 'msg.json'), MESSAGE);
      writeFileSync(join(work, 'ids.txt'), Array.from({ length: 1001 }, (_, i) => `id-${String(i).padStart(4, '0')}`).join('\n'));
      const run = await runAction({ file: 'msg.json', vars: 'version=1\nnotes=n', ...target(), 'base-url': server.url, 'client-ids-file': 'ids.txt', report: 'report.json' });
      expect(run.code, run.stderr).toBe(7);
      expect(run.outputs).toMatchObject({ 'exit-code': '7', accepted: '1000', 'in-doubt': '1', 'not-sent': '0', report: 'report.json' });
      expect(JSON.parse(run.outputs['message-ids']!)).toEqual(['msg-first']);
      // Nothing is certainly unsent; the one recipient in doubt is stated apart, with the flag that includes it.
      expect(run.summary).toContain('1 recipient in doubt');
      // With the destination the inputs chose: pasted as printed, it goes where the run went.
      expect(run.summary).toContain(`pushctl resend ${run.outputs['run-id']} --app-id ${APP} --base-url ${server.url} --include-in-doubt`);
      expect(run.summary).not.toContain('not sent. Re-run');
      expect(run.stdout).toContain('::error title=pushctl::pushctl exited 7');
      expectSecretOnlyMasked(run);
    } finally {
      await server.close();
    }
  });

  it('a bad input is one annotation naming it, exit 2', async () => {
    const run = await runAction({ file: 'x.json', 'dry-run': 'maybe', ...target() });
    expect(run.code).toBe(2);
    // One shape for every failed step, refused input or failed run: the exit status, its meaning, the error.
    expect(run.stdout).toContain('::error title=pushctl::pushctl exited 2, usage error: the dry-run input is "maybe", not a boolean');
    expectSecretOnlyMasked(run);
  });

  it('once: "Re-run jobs" with the same key and journal directory sends nothing the second time', async () => {
    writeFileSync(join(work, 'release.json'), MESSAGE);
    const inputs = { file: 'release.json', vars: 'version=3.0\nnotes=n', ...target(), once: 'release-3.0', 'journal-dir': join(work, 'journals') };
    const first = await runAction(inputs, { GITHUB_RUN_ATTEMPT: '1' });
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs.skipped).toBe('false');
    const again = await runAction(inputs, { GITHUB_RUN_ATTEMPT: '2' });
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(emulator.messages(APP)).toHaveLength(1);
    expect(again.outputs).toMatchObject({ skipped: 'true', state: 'skipped', 'run-id': first.outputs['run-id'], 'message-ids': first.outputs['message-ids'] });
    expect(again.summary).toContain('## pushctl send: skipped: already done, nothing sent now');
    // Another message under the same key is refused, naming both runs, in the action's terms.
    writeFileSync(join(work, 'release.json'), MESSAGE.replace('Version', 'Release'));
    const other = await runAction(inputs);
    expect(other.code).toBe(2);
    expect(other.stdout).toContain(first.outputs['run-id']!);
    expect(other.stdout).toContain('the once input');
    expect(emulator.messages(APP)).toHaveLength(1);
  });

  it('once: a run killed mid-send, re-run, sends exactly what it had not sent', async () => {
    const total = 20_000;
    const all = Array.from({ length: total }, (_, i) => `k-${String(i).padStart(5, '0')}`);
    writeFileSync(join(work, 'ids.txt'), all.join('\n'));
    writeFileSync(join(work, 'release.json'), MESSAGE.replace('"type": 0', '"type": 2'));
    let killAfter = 4;
    let child: import('node:child_process').ChildProcess | undefined;
    const server = await startScriptedServer(() => {
      if (--killAfter === 0) child?.kill('SIGKILL');
      return { ...ok(), delayMs: 30 };
    });
    try {
      const inputs = { file: 'release.json', vars: 'version=4\nnotes=n', ...target(), 'base-url': server.url, 'client-ids-file': 'ids.txt', rate: '0', once: 'release-4', 'journal-dir': join(work, 'journals') };
      const killed = await runAction(inputs, {}, (c) => (child = c));
      expect(killed.code).toBeNull();
      // A request the killed run had written may still be on its way: it belongs to the first run.
      await server.quiet();
      const firstIds = server.requests.flatMap((r) => (JSON.parse(r.body) as { condition: { client_ids: string[] } }).condition.client_ids);
      const before = server.requests.length;
      const again = await runAction(inputs);
      expect(again.summary).toMatch(/unfinished: this run sent the \d+ recipients it had left: \d+ accepted\. The table counts every run of the key\./);
      const resent = server.requests.slice(before).flatMap((r) => (JSON.parse(r.body) as { condition: { client_ids: string[] } }).condition.client_ids);
      // Nothing twice: no ID of the first run's requests is sent again.
      const first = new Set(firstIds);
      expect(resent.filter((id) => first.has(id))).toEqual([]);
      expect(new Set(resent).size).toBe(resent.length);
      // Nothing lost but those in doubt: an ID that reached the service in neither run is one the killed
      // run's journal marks in doubt (its request had started when the kill came), left out without
      // --include-in-doubt; and every ID the journal says was not sent went out in the re-run.
      const journals = join(work, 'journals');
      // The killed run is the journal that resends nothing (the re-run's names it as its parent).
      const runs = readdirSync(journals).filter((name) => name.endsWith('.jsonl')).map((name) => readJournal(readFileSync(join(journals, name), 'utf8')));
      expect(runs).toHaveLength(2);
      const { results } = runs.find((run) => run.header?.parent === undefined)!;
      const inDoubt = new Set(results.filter((r) => r.status === 'in_doubt').flatMap((r) => r.clientIds));
      const notSent = results.filter((r) => r.status === 'not_sent').flatMap((r) => r.clientIds);
      const reached = new Set([...firstIds, ...resent]);
      for (const id of all) if (!reached.has(id)) expect(inDoubt.has(id), `${id} was lost`).toBe(true);
      expect(new Set(resent)).toEqual(new Set(notSent));
      // The re-run sent all it had left; the step fails only for what the kill left in doubt, as the key's
      // state says (docs/behaviour.md#once).
      expect(again.code, again.stderr + again.stdout).toBe(inDoubt.size > 0 ? 7 : 0);
      expect(again.outputs).toMatchObject({ 'exit-code': String(again.code), state: inDoubt.size > 0 ? 'partly sent' : 'sent' });
    } finally {
      await server.close();
    }
  });

  it('mode validate: local checks and annotations, no secret needed (pull requests from forks)', async () => {
    writeFileSync(join(work, 'release.json'), MESSAGE);
    const run = await runAction({ file: 'release.json', vars: 'version=1\nnotes=n', mode: 'validate' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toContain('## pushctl validate: succeeded');
    expect(emulator.messages(APP)).toEqual([]);
    writeFileSync(join(work, 'bad.json'), MESSAGE.replace('"type": 1', '"type": 7'));
    const bad = await runAction({ file: 'bad.json', vars: 'version=1\nnotes=n', mode: 'validate' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/::error file=bad\.json,line=2/);
  });

  it('the state output says what happened: rejected for a wrong secret, not sent when nothing listens, never finished', async () => {
    writeFileSync(join(work, 'release.json'), MESSAGE);
    const inputs = { file: 'release.json', vars: 'version=2.0\nnotes=x\n' };
    const wrong = await runAction({ ...inputs, ...target(), 'app-secret': 'not-the-secret' });
    expect(wrong.code).toBe(4);
    expect(wrong.outputs.state).toBe('rejected');
    const nobody = await runAction({ ...inputs, ...target(), 'base-url': 'http://127.0.0.1:9' });
    expect(nobody.code).toBe(5);
    expect(nobody.outputs.state).toBe('not sent');
  });

  it('mode check: proves app-id and app-secret with a dry run (nothing delivered); failures name the inputs', async () => {
    const good = await runAction({ mode: 'check', ...target() });
    expect(good.code, good.stderr + good.stdout).toBe(0);
    expect(good.summary).toContain('## pushctl check: succeeded');
    expect(emulator.messages(APP).every((m) => !m.delivered)).toBe(true);
    const wrong = await runAction({ mode: 'check', ...target(), 'app-secret': 'not-the-secret' });
    expect(wrong.code).toBe(4);
    expect(wrong.summary).toContain('21004');
    // Said once: the verdict line and the error are the same words.
    expect(wrong.summary.split('21004 App Secret illegal')).toHaveLength(2);
    const missing = await runAction({ mode: 'check', 'base-url': emulator.url, 'app-id': APP });
    expect(missing.code).toBe(6);
    expect(missing.stdout).toContain('app-secret');
    expect(missing.stdout).not.toMatch(/--app-secret|PUSHCTL_APP_SECRET/);
  });
});
