// One run, one account: what `send` says of a run as it ends (its summary on stderr, its --report) and what
// `runs show` reads back from the journal afterwards (its lines, its --report) say the same words for the same
// batches. The built binary against the real emulator on port 0; the interruption is a real SIGINT.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { runStep } from '../helpers/action-step.js';

const APP = 'account-app';
const SECRET = 'account-S3CR3T-41d9';
const IDS = Array.from({ length: 60 }, (_, i) => `acct-${String(i).padStart(2, '0')}`);

let dir = '';
const children = scratchPerTest('pushctl-one-account-', (d) => (dir = d));
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const env = (secret = SECRET) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: secret, PUSHCTL_APP_ID: APP, PUSHCTL_JOURNAL_DIR: join(dir, 'runs') });
const sendArgs = (url: string) => ['send', '--base-url', url, '--title', 'One account', '--client-id', IDS.join(','), '--batch-size', '5', '--concurrency', '1', '--report', 'sent.json'];
const report = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
/** The lines that give batches' causes (`  not sent: … (3 batches)`), as the send summary and runs show print them. */
const causeLines = (text: string) => text.split('\n').filter((line) => /^ {2}(rejected|in doubt|not sent): .* \(\d+ batch(es)?\)$/.test(line));
const runIdOf = (r: CliResult) => /pushctl runs show (\S+) --report/.exec(r.stderr)?.[1] ?? (report('sent.json').run_id as string);
/**
 * The send, against an emulator that stops it with SIGINT the first time it calls `stop` (given to the
 * emulator's hooks by `hooks`): once, whatever it calls after.
 */
async function sendInterrupted(hooks: (stop: () => void) => Partial<EmulatorOptions>, extra: string[] = []): Promise<CliResult> {
  let stop = () => {};
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }], ...hooks(() => stop()) });
  return runCli([...sendArgs(emulator.url), ...extra], {
    env: env(),
    cwd: dir,
    onSpawn: (child) => {
      children.push(child);
      stop = () => {
        stop = () => {};
        child.kill('SIGINT');
      };
    },
  });
}

/** What `runs show` says of the run, and the report it writes on demand. */
async function readBack(runId: string): Promise<{ shown: CliResult; report: Record<string, unknown> }> {
  const shown = await runCli(['runs', 'show', runId, '--report', 'shown.json'], { env: env(), cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  return { shown, report: report('shown.json') };
}

describe('send and runs show give one account of a run', () => {
  it('a run the service refused for the app: the batches it stopped are not sent for the same reason in both', async () => {
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
    const sent = await runCli(sendArgs(emulator.url), { env: env('not-the-secret'), cwd: dir });
    expect(sent.code, sent.stderr).toBe(4);
    const { shown, report: onDemand } = await readBack(runIdOf(sent));
    expect(causeLines(shown.stdout)).toEqual(causeLines(sent.stderr));
    expect(onDemand).toEqual(report('sent.json'));
  });

  it('a run stopped by SIGINT: the batches never started are not sent for the same reason in both', async () => {
    // The first request the emulator accepts interrupts the run while that request is still in flight.
    const sent = await sendInterrupted((stop) => ({ newMessageId: () => (stop(), `emu-${Math.random().toString(16).slice(2)}`) }));
    expect(sent.code, sent.stderr).toBe(7);
    expect(sent.stderr).toContain('stopping');
    const { shown, report: onDemand } = await readBack(runIdOf(sent));
    expect(shown.stdout).toContain('(interrupted)');
    expect(causeLines(shown.stdout)).toEqual(causeLines(sent.stderr));
    expect(onDemand).toEqual(report('sent.json'));
  });

  it('batches the service never processed, retried, then stopped by SIGINT: the same reason and attempt count in both', async () => {
    // Every push is answered 503 (not processed: retried); the first answer interrupts the run, which then
    // stops during that batch's retry or before it, and leaves the other batches unstarted.
    const sent = await sendInterrupted((stop) => ({ chaos: '503=100%', log: () => stop() }), ['--max-attempts', '3']);
    expect(sent.code, sent.stderr).toBe(5);
    const { shown, report: onDemand } = await readBack(runIdOf(sent));
    expect(causeLines(shown.stdout)).toEqual(causeLines(sent.stderr));
    expect(onDemand).toEqual(report('sent.json'));
  });

  it('batches that outlasted their retries: the attempts are counted in both', async () => {
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }], chaos: '503=100%' });
    const sent = await runCli([...sendArgs(emulator.url), '--max-attempts', '1'], { env: env(), cwd: dir });
    expect(sent.code, sent.stderr).toBe(5);
    expect(causeLines(sent.stderr)).toEqual(['  not sent: HTTP 503 (after 1 attempt) (12 batches)']);
    const { shown, report: onDemand } = await readBack(runIdOf(sent));
    expect(causeLines(shown.stdout)).toEqual(causeLines(sent.stderr));
    expect(onDemand).toEqual(report('sent.json'));
  });

  it('a dry run left in doubt is never said to have maybe delivered, nor to risk sending twice: a dry run delivers nothing', async () => {
    // Every dry run answered 500 after the service checked it: in doubt, and (the emulator's record) never delivered.
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }], chaos: '500=100%' });
    const checked = await runCli(['dry-run', ...sendArgs(emulator.url).slice(1)], { env: env(), cwd: dir });
    expect(checked.code, checked.stderr).toBe(5);
    expect(emulator.messages(APP).length).toBeGreaterThan(0);
    expect(emulator.messages(APP).every((m) => m.dry_run && !m.delivered)).toBe(true);
    const { shown } = await readBack(runIdOf(checked));
    // The action's step in mode dry-run: its summary and annotations.
    writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, notification: { title: 'One account' } }));
    writeFileSync(join(dir, 'ids.txt'), `${IDS.join('\n')}\n`);
    const step = await runStep(dir, { mode: 'dry-run', file: 'message.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url, 'journal-dir': join(dir, 'runs') });
    expect(step.outputs['in-doubt']).toBe('60');
    for (const said of [checked.stderr, shown.stdout, step.summary, step.stdout]) {
      expect(said).toMatch(/60 recipients in doubt/);
      expect(said).not.toMatch(/may already have (been )?deliver|sending twice/);
    }
  });

  it('a send refused for its --report path before anything went out never says it is sending', async () => {
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
    writeFileSync(join(dir, 'sent.json'), 'notes of mine\n');
    for (const once of [[], ['--once', 'release-1']]) {
      const refused = await runCli([...sendArgs(emulator.url), ...once], { env: env(), cwd: dir });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('--report sent.json exists');
      expect(refused.stderr).not.toContain('sending to');
    }
    expect(emulator.stats(APP).accepted).toBe(0);
    expect(readFileSync(join(dir, 'sent.json'), 'utf8')).toBe('notes of mine\n');
  });
});

describe('one outcome, one word: the headline, runs, runs show and --json name the same state', () => {
  /** The state each account gives of one run: the headline's word, `runs`' column, `runs show`'s line, its --json. */
  async function accounts(sent: CliResult): Promise<string[]> {
    const headline = sent.stderr.split('\n').find((line) => /^[a-z ]+: \d/.test(line)) ?? `(no headline in ${sent.stderr})`;
    const runId = (JSON.parse((await runCli(['runs', '--json'], { env: env(), cwd: dir })).stdout) as { runs: { run_id: string }[] }).runs[0]!.run_id;
    const listed = (await runCli(['runs'], { env: env(), cwd: dir })).stdout.split('\n').find((line) => line.startsWith(runId))!;
    const shown = (await runCli(['runs', 'show', runId], { env: env(), cwd: dir })).stdout.split('\n')[0]!;
    const json = JSON.parse((await runCli(['runs', 'show', runId, '--json'], { env: env(), cwd: dir })).stdout) as { run: { state: string; exit_code: number } };
    expect(json.run.exit_code).toBe(sent.code);
    return [headline.split(':')[0]!, listed.slice(runId.length).trim().split(/ {2,}/)[0]!, /^run \S+ \((.+)\)$/.exec(shown)?.[1] ?? shown, json.run.state.replace('_', ' ')];
  }

  it.each([
    ['partly sent', '500=30%,503=30%', 7],
    ['in doubt', '500=100%', 5],
    ['not sent', '503=100%', 5],
  ])('%s', async (state, chaos, code) => {
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }], chaos, chaosSeed: 3 });
    const sent = await runCli(['send', '--base-url', emulator.url, '--title', 'One word', '--client-id', IDS.join(','), '--batch-size', '5', '--concurrency', '1', '--max-attempts', '1'], { env: env(), cwd: dir });
    expect(sent.code, sent.stderr).toBe(code);
    expect(await accounts(sent)).toEqual([state, state, state, state]);
  });

  it('interrupted', async () => {
    const sent = await sendInterrupted((stop) => ({ newMessageId: () => (stop(), `emu-${Math.random().toString(16).slice(2)}`) }));
    expect(sent.code, sent.stderr).toBe(7);
    expect(await accounts(sent)).toEqual(['interrupted', 'interrupted', 'interrupted', 'interrupted']);
  });
});
