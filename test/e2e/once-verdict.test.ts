// A `--once` re-run that finds its key's runs done answers for the key: its exit status is the verdict of what
// the key's runs delivered together — the family `runs show` counts and whose state it names — never that of
// whichever run of the family happened to end last. The built binary against the real emulator on port 0, its
// chaos changed between runs through its HTTP API as a flaky service would change.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { runStep } from '../helpers/action-step.js';

const APP = 'verdict-app';
const SECRET = 'verdict-S3CR3T-5e02';
const IDS = Array.from({ length: 60 }, (_, i) => `verdict-${String(i).padStart(2, '0')}`);

let dir = '';
scratchPerTest('pushctl-once-verdict-', (d) => (dir = d));
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: SECRET, PUSHCTL_APP_ID: APP, PUSHCTL_JOURNAL_DIR: join(dir, 'runs') });
type Counts = Record<'accepted' | 'rejected' | 'in_doubt' | 'not_sent', number>;
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown> & { summary: { recipients: Counts } };

async function setChaos(spec: string): Promise<void> {
  const answer = await fetch(`${emulator!.url}/v1/emulator/chaos`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ spec, seed: 3 }) });
  expect(answer.status, await answer.text()).toBe(200);
}

/** The same `send --once` each time: what a CI job's re-run repeats. */
const sendOnce = (...extra: string[]) =>
  runCli(['send', '--base-url', emulator!.url, '--title', 'Verdict', '--client-id', IDS.join(','), '--batch-size', '5', '--concurrency', '1', '--max-attempts', '1', '--once', 'release-9', ...extra], { env: env(), cwd: dir });

/** The key's first run: some batches accepted, some in doubt (HTTP 500), some not sent (HTTP 503). */
async function firstRun(): Promise<string> {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  await setChaos('500=30%,503=30%');
  const first = await sendOnce('--json');
  expect(first.code, first.stderr).toBe(7);
  const { recipients } = json(first).summary;
  expect(recipients.accepted * recipients.in_doubt * recipients.not_sent, JSON.stringify(recipients)).toBeGreaterThan(0);
  return json(first).run_id as string;
}

/** What `runs show` says the key's family came to, and the exit status it gives that state. */
async function familyOf(runId: string): Promise<{ state: string; in_doubt: number; summary: unknown; message_ids: string[] }> {
  const shown = await runCli(['runs', 'show', runId, '--json'], { env: env(), cwd: dir });
  const run = (JSON.parse(shown.stdout) as { run: { family: { state: string; summary: { recipients: { in_doubt: number } }; message_ids: string[] } } }).run;
  return { state: run.family.state, in_doubt: run.family.summary.recipients.in_doubt, summary: run.family.summary, message_ids: run.family.message_ids };
}

describe('--once finds its key done: the exit status is the key\'s', () => {
  it('the resume delivered all it sent, the first run left some in doubt: partly sent, exit 7, never "already done"', async () => {
    const root = await firstRun();
    await setChaos('');
    const resumed = await sendOnce('--json');
    expect(json(resumed).resumed_from).toBe(root);
    // This attempt delivered all it sent; the key did not: its exit status is the key's, as the next re-run's.
    // The document's top level answers for the key, as a skip's, a run of several targets' and the action's
    // outputs do; this attempt's own counts are under `attempt`.
    const attempt = json(resumed).attempt as { state: string; summary: { recipients: Counts }; message_ids: string[] };
    expect(attempt.summary.recipients).toMatchObject({ rejected: 0, in_doubt: 0, not_sent: 0 });
    expect(attempt.state).toBe('sent');
    expect(json(resumed)).toMatchObject({ state: 'partly_sent', run_state: 'partly_sent', ok: false, exit_code: 7 });
    expect(resumed.code).toBe(7);
    const family = await familyOf(root);
    expect(json(resumed).summary).toEqual(family.summary);
    expect(json(resumed).message_ids).toEqual(family.message_ids);
    expect(family.message_ids).toEqual(expect.arrayContaining(attempt.message_ids));

    const again = await sendOnce('--json');
    expect(family).toMatchObject({ state: 'partly_sent' });
    expect(json(again)).toMatchObject({ skipped: true, run_state: family.state, in_doubt: family.in_doubt, ok: false, exit_code: 7 });
    expect(again.code).toBe(7);
    const human = await sendOnce();
    expect(human.code).toBe(7);
    expect(human.stderr).not.toContain('already done');
    expect(human.stderr).toContain('(exit 7)');
    // --quiet keeps what a failure needs (docs/behaviour.md#output): the verdict in a line and the next step.
    const quiet = await sendOnce('--quiet');
    expect(quiet.code).toBe(7);
    expect(quiet.stderr).toMatch(/^✗ skipped, already ran, not in full \(exit 7\): --once release-9 matches run /);
    expect(quiet.stderr).toContain('add --include-in-doubt');
    expect(quiet.stderr).not.toMatch(/^ {2}accepted /m);
  });

  it('the resume left all it sent in doubt, the first run had some accepted: partly sent, exit 7, not the resume\'s 5', async () => {
    const root = await firstRun();
    await setChaos('500=100%');
    const resumed = await sendOnce('--json');
    expect(json(resumed)).toMatchObject({ state: 'partly_sent', run_state: 'partly_sent', attempt: { state: 'in_doubt' }, exit_code: 7 });
    expect(resumed.code, resumed.stderr).toBe(7);

    const again = await sendOnce('--json');
    const family = await familyOf(root);
    expect(family).toMatchObject({ state: 'partly_sent' });
    expect(json(again)).toMatchObject({ skipped: true, run_state: family.state, ok: false, exit_code: 7 });
    expect(again.code).toBe(7);
  });

  it('the action resuming the key: its exit-code and state outputs are the key\'s, as the CLI\'s', async () => {
    const root = await firstRun();
    await setChaos('');
    writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 86400, notification: { title: 'Verdict' } }));
    writeFileSync(join(dir, 'ids.txt'), `${IDS.join('\n')}\n`);
    const step = await runStep(dir, { file: 'message.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator!.url, once: 'release-9', 'journal-dir': join(dir, 'runs') });
    expect(step.summary).toContain(root);
    const family = await familyOf(root);
    expect(step.outputs).toMatchObject({ state: 'partly sent', 'exit-code': '7', 'in-doubt': String(family.in_doubt) });
    expect(step.code).toBe(7);
  });

  it('two targets, one resumed: its row and the exit status are the key\'s, as its skip\'s would be', async () => {
    await firstRunAt('g');
    await setChaos('');
    const again = await targetsOnce();
    const rows = json(again).targets as { profile: string; state: string; exit_code: number }[];
    expect(rows.find((row) => row.profile === 'g')).toMatchObject({ state: 'partly_sent', exit_code: 7 });
    expect(rows.find((row) => row.profile === 'i')).toMatchObject({ state: 'skipped', exit_code: 0 });
    expect(again.code, again.stderr).toBe(7);
    // One shape with a single target's resume: the top level answers for the key (its state too), this
    // attempt's counts are under `attempt`.
    expect(json(again)).toMatchObject({ state: 'partly_sent', exit_code: 7 });
    const attempt = (json(again).attempt as { summary: { recipients: Counts & { total: number } } }).summary.recipients;
    expect(attempt.total).toBeLessThan(json(again).summary.recipients.accepted + json(again).summary.recipients.in_doubt + json(again).summary.recipients.not_sent);
    expect(attempt).toMatchObject({ rejected: 0, in_doubt: 0, not_sent: 0 });
    const skipped = await targetsOnce();
    expect((json(skipped).targets as { profile: string; exit_code: number }[]).find((row) => row.profile === 'g')).toMatchObject({ exit_code: 7 });
    expect(skipped.code, skipped.stderr).toBe(7);
  });
});

let other: Emulator | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
});

/** `send --once` to profiles g (the chaotic emulator) and i (another, well), from one config file. */
function targetsOnce(): Promise<CliResult> {
  const profile = (url: string) => ({ appId: APP, baseUrl: url });
  writeFileSync(join(dir, 'pushctl.json'), JSON.stringify({ profiles: { g: profile(emulator!.url), i: profile(other!.url) } }), { mode: 0o600 });
  const targetsEnv = { ...env(), PUSHCTL_APP_SECRET: undefined, PUSHCTL_APP_ID: undefined, PUSHCTL_APP_SECRET_G: SECRET, PUSHCTL_APP_SECRET_I: SECRET };
  return runCli(['send', '-c', 'pushctl.json', '--profile', 'g,i', '--title', 'Verdict', '--client-id', IDS.join(','), '--batch-size', '5', '--concurrency', '1', '--max-attempts', '1', '--once', 'release-9', '--json'], { env: targetsEnv, cwd: dir });
}

/** The key's first run to both targets: g partly sent (accepted, in doubt, not sent), i sent. */
async function firstRunAt(chaotic: 'g'): Promise<void> {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  other = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  await setChaos('500=30%,503=30%');
  const first = await targetsOnce();
  expect(first.code, first.stderr).toBe(7);
  const rows = json(first).targets as { profile: string; summary: { recipients: Counts } }[];
  const { recipients } = rows.find((row) => row.profile === chaotic)!.summary;
  expect(recipients.accepted * recipients.in_doubt * recipients.not_sent, JSON.stringify(recipients)).toBeGreaterThan(0);
}
