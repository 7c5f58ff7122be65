// A release announced to two regions in each user's language with `--once`, its first attempt SIGKILLed
// half-way (a CI job killed, a cron run cut short), then run again (docs/behaviour.md#once,
// docs/behaviour.md#targets): the re-run says what it does for each target, as one target's does, and the
// action's re-run counts the key's whole audience, as one target's does. The built binary and the committed
// action bundle against two `pushctl serve` processes; deliveries are counted on the emulators' side.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { deliveredCounts } from '../helpers/record-lines.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { runStep } from '../helpers/action-step.js';

const REGIONS = {
  global: { app: 'rerun-global', secret: 'rerun-global-S3CRET-77a1' },
  india: { app: 'rerun-india', secret: 'rerun-india-S3CRET-1b9e' },
} as const;
type Region = keyof typeof REGIONS;
const LANGUAGES = ['en-GB', 'fr', 'fr-CA', 'hi-IN', 'de'];
const COUNT = 3000;
const MESSAGE = {
  type: 1,
  time_to_live: 3600,
  notification: { title: 'Weather {{version}} is out', desc: 'New radar maps', open_type: '1' },
  variants: { fr: { notification: { title: 'Weather {{version}} est disponible' } }, hi: { notification: { title: 'Weather {{version}} अब उपलब्ध है' } } },
};
const secrets = { PUSHCTL_APP_SECRET_GLOBAL: REGIONS.global.secret, PUSHCTL_APP_SECRET_INDIA: REGIONS.india.secret };

const served = new Map<Region, ServedCli & { record: string }>();
let recordDir!: string;
let work!: string;
const children = scratchPerTest('pushctl-targets-rerun-', (dir) => {
  work = dir;
  writeFileSync(join(dir, 'release.json'), JSON.stringify(MESSAGE));
  const rows = Array.from({ length: COUNT }, (_, i) => `${idOf(i)},${LANGUAGES[i % LANGUAGES.length]}`);
  writeFileSync(join(dir, 'devices.csv'), `client_id,language\n${rows.join('\n')}\n`);
  const profile = (region: Region) => ({ appId: REGIONS[region].app, baseUrl: served.get(region)!.url });
  writeFileSync(join(dir, '.pushctlrc.json'), JSON.stringify({ profiles: { global: profile('global'), india: profile('india') } }));
});
// Each test's IDs are its own (the emulators serve the whole file): named after its directory.
const idOf = (i: number) => `${basename(work)}-dev-${i}`;
const ids = () => Array.from({ length: COUNT }, (_, i) => idOf(i));

beforeAll(async () => {
  recordDir = mkdtempSync(join(tmpdir(), 'pushctl-targets-rerun-records-'));
  for (const region of Object.keys(REGIONS) as Region[]) {
    const record = join(recordDir, `${region}.jsonl`);
    const { app, secret } = REGIONS[region];
    // Answers after 100-200 ms: a run at a low rate is still sending when it is killed.
    served.set(region, { ...(await serveCli(['--app', `${app}:${secret}`, '--record', record, '--rate', '0', '--chaos', 'latency=100-200ms'])), record });
  }
});
afterAll(async () => {
  for (const s of served.values()) await s.stop();
  rmSync(recordDir, { recursive: true, force: true });
});

const journals = () => join(work, 'journals');
const cliEnv = () => cleanEnv({ HOME: work, PUSHCTL_JOURNAL_DIR: journals(), ...secrets });
const sendArgs = (key: string) => ['send', '-f', 'release.json', '--var', 'version=2.0', '--client-ids-file', 'devices.csv', '--profile', 'global,india', '--once', key];

/** How often each ID was delivered by `region`'s emulator. */
function deliveries(region: Region): Map<string, number> {
  return deliveredCounts(served.get(region)!.record);
}

/** IDs in doubt in this trial's journals, by app. */
function inDoubtByApp(): Map<string, Set<string>> {
  const doubt = new Map<string, Set<string>>();
  for (const name of readdirSync(journals()).filter((f) => f.endsWith('.jsonl'))) {
    const journal = readJournal(readFileSync(join(journals(), name), 'utf8'));
    for (const r of journal.results) if (r.status === 'in_doubt') for (const id of r.clientIds) doubt.set(journal.header!.app_id, (doubt.get(journal.header!.app_id) ?? new Set()).add(id));
  }
  return doubt;
}

/** The exit status of a re-run that resumed the key: the key's verdict, 7 while a kill left recipients in doubt. */
const keyVerdict = () => ([...inDoubtByApp().values()].some((s) => s.size > 0) ? 7 : 0);

function expectEachOnce(): void {
  const doubt = inDoubtByApp();
  for (const region of Object.keys(REGIONS) as Region[]) {
    const counts = deliveries(region);
    const inDoubt = doubt.get(REGIONS[region].app) ?? new Set();
    expect(ids().filter((id) => (counts.get(id) ?? 0) > 1), `${region}: delivered twice`).toEqual([]);
    expect(ids().filter((id) => !inDoubt.has(id) && counts.get(id) !== 1), `${region}: not delivered once`).toEqual([]);
  }
}

/** How many of this test's IDs `region` delivered. */
function deliveredOf(region: Region): number {
  const counts = deliveries(region);
  return ids().filter((id) => counts.has(id)).length;
}

/** Sends both targets at a low rate and SIGKILLs the sender once each emulator has delivered some of it, not all. */
async function killMidRun(key: string): Promise<void> {
  let child!: ChildProcess;
  const done = runCli([...sendArgs(key), '--rate', '8', '--batch-size', '100'], { env: cliEnv(), cwd: work, onSpawn: (c) => children.push((child = c)) });
  const delivered = deliveredOf;
  // Until both emulators delivered some, or the sender ended on its own (then the expectations below say why).
  let ended = false;
  void done.then(() => (ended = true));
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (ended || (Object.keys(REGIONS) as Region[]).every((region) => delivered(region) >= 600)) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
  });
  child.kill('SIGKILL');
  const killed = await done;
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  for (const region of Object.keys(REGIONS) as Region[]) expect(delivered(region), `${region} had recipients left`).toBeLessThan(COUNT);
}

/** The run ids of the killed attempt's targets, by profile, as `runs --json` lists the family. */
async function killedRuns(): Promise<Record<string, string>> {
  const listed = JSON.parse((await runCli(['runs', '--json'], { env: cliEnv(), cwd: work })).stdout) as { runs: { target_runs: { run_id: string; profile: string }[] }[] };
  return Object.fromEntries(listed.runs[0]!.target_runs.map((r) => [r.profile, r.run_id]));
}

describe('a --once announcement to two regions, killed half-way, run again', () => {
  it('the CLI re-run says, per target, which run it resumes and what it had left, as a single target does', async () => {
    await killMidRun('rel-cli');
    const killed = await killedRuns();
    const again: CliResult = await runCli(sendArgs('rel-cli'), { env: cliEnv(), cwd: work });
    expect(again.code, again.stderr).toBe(keyVerdict());
    for (const profile of ['global', 'india']) {
      expect(again.stderr).toMatch(new RegExp(`^profile ${profile}: --once rel-cli: resuming run ${killed[profile]} \\(killed\\): \\d+ recipients left to send$`, 'm'));
    }
    expectEachOnce();
    // Done now: the next re-run names the run it found, for `runs show` and scripts, as a single target's does.
    const done = await runCli([...sendArgs('rel-cli'), '--json'], { env: cliEnv(), cwd: work });
    const doc = JSON.parse(done.stdout) as { skipped: boolean; run_id?: string; targets: { run_id: string }[] };
    expect(doc.skipped).toBe(true);
    expect(doc.run_id).toBe(doc.targets[0]!.run_id);
    const human = await runCli(sendArgs('rel-cli'), { env: cliEnv(), cwd: work });
    // Found done, it names that run; with recipients a kill left in doubt, it says the key is not sent in full.
    const headline = keyVerdict() === 0 ? `✓ skipped: --once found every target's run already done; nothing was sent now (run ${doc.run_id})` : `✗ skipped: 0 of 2 targets in full; --once found every target's run already done; nothing was sent now (run ${doc.run_id})`;
    expect(human.stderr).toContain(headline);
    expect(human.code).toBe(keyVerdict());
    const shown = await runCli(['runs', 'show', doc.run_id!], { env: cliEnv(), cwd: work });
    expect(shown.code, shown.stderr).toBe(0);
  }, 120_000);

  it("the CLI re-run's --json counts the key at the top level, as its rows are read: never one target's every run added to another's last attempt", async () => {
    await killMidRun('rel-json');
    const killed = await killedRuns();
    const again = await runCli([...sendArgs('rel-json'), '--json'], { env: cliEnv(), cwd: work });
    expect(again.code, again.stderr).toBe(keyVerdict());
    const doc = JSON.parse(again.stdout) as { summary: { recipients: Record<string, number> }; message_ids: string[]; targets: { resumed_from?: string; summary: { recipients: { total: number } } }[] };
    // Each row is what this attempt sent to the target, named by the run it resumed.
    for (const row of doc.targets) {
      expect(row.resumed_from).toBeDefined();
      expect(row.summary.recipients.total).toBeLessThan(COUNT);
    }
    const inDoubt = [...inDoubtByApp().values()].reduce((n, s) => n + s.size, 0);
    expect(doc.summary.recipients).toMatchObject({ total: 2 * COUNT, accepted: 2 * COUNT - inDoubt, in_doubt: inDoubt, not_sent: 0 });
    const shown = JSON.parse((await runCli(['runs', 'show', killed.global!, '--json'], { env: cliEnv(), cwd: work })).stdout) as { run: { target_runs: { family: { message_ids: string[] } }[] } };
    expect(new Set(doc.message_ids)).toEqual(new Set(shown.run.target_runs.flatMap((r) => r.family.message_ids)));
    expectEachOnce();
  }, 120_000);

  it('a second process that waits for the owner and is stopped by SIGTERM says once that nothing went to any target', async () => {
    const first = runCli([...sendArgs('rel-wait'), '--rate', '8', '--batch-size', '100'], { env: cliEnv(), cwd: work, onSpawn: (c) => children.push(c) });
    // Started once the first owns the key: it has written its journals.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (readdirSync(work).includes('journals') && readdirSync(journals()).filter((f) => f.endsWith('.jsonl')).length === 2) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    let waiter!: ChildProcess;
    let said = '';
    const second = runCli(sendArgs('rel-wait'), {
      env: cliEnv(),
      cwd: work,
      onSpawn: (c) => {
        children.push((waiter = c));
        // One SIGTERM, once it waits: a second would be "stop now".
        const listen = (d: Buffer) => {
          said += d.toString();
          if (!said.includes('waiting for run')) return;
          c.stderr!.off('data', listen);
          c.kill('SIGTERM');
        };
        c.stderr!.on('data', listen);
      },
    });
    const stopped = await second;
    expect(waiter.pid).toBeGreaterThan(0);
    expect(stopped.code, stopped.stderr).toBe(130);
    const error = stopped.stderr.split('\n').find((line) => line.startsWith('error: '))!;
    expect((await first).code).toBe(0);
    // The owner is named as `runs`, `runs show` and `resend` take it: the family, then the target whose key
    // is waited on and its own run (docs/behaviour.md#ownership).
    const family = (JSON.parse((await runCli(['runs', '--json'], { env: cliEnv(), cwd: work })).stdout) as { runs: { run_id: string; target_runs: { run_id: string; profile: string }[] }[] }).runs[0]!;
    const owner = `run ${family.run_id} \\(pid \\d+ on [^;]+; target (${family.target_runs.map((t) => `${t.profile}: run ${t.run_id}`).join('|')})\\)`;
    expect(stopped.stderr).toMatch(new RegExp(`^waiting for ${owner}, which owns --once rel-wait `, 'm'));
    expect(error).toMatch(new RegExp(`^error: profile (global|india): stopped while waiting for ${owner}; nothing was sent to any target$`));
    expectEachOnce();
  }, 120_000);

  it('the action cancelled half-way says the job was cancelled; its re-run finishes every target, each device once', async () => {
    const inputs = { file: 'release.json', vars: 'version=2.0', 'client-ids-file': 'devices.csv', profiles: 'global,india', once: 'rel-cancel', 'journal-dir': journals(), rate: '1' };
    let step!: ChildProcess;
    const running = runStep(work, inputs, secrets, (c) => children.push((step = c)));
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((Object.keys(REGIONS) as Region[]).every((region) => deliveredOf(region) > 0)) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    step.kill('SIGINT');
    const cancelled = await running;
    expect(cancelled.code, cancelled.stdout).toBe(7);
    expect(cancelled.outputs.state).toBe('interrupted');
    expect(cancelled.summary).toMatch(/interrupted \(a signal: the job was cancelled\): \d+ of \d+ batches went out/);
    expect(cancelled.stdout).toMatch(/^::error title=pushctl::.*interrupted \(a signal: the job was cancelled\)/m);

    const again = await runStep(work, { ...inputs, rate: '' }, secrets);
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs).toMatchObject({ accepted: String(2 * COUNT), state: 'sent' });
    expectEachOnce();
  }, 120_000);

  it("the action's re-run counts the key's whole audience in its outputs and summary, as with one target", async () => {
    await killMidRun('rel-action');
    const killed = await killedRuns();
    // What every run of the key delivered, as runs show says each target's family after the re-run.
    const inputs = { file: 'release.json', vars: 'version=2.0', 'client-ids-file': 'devices.csv', profiles: 'global,india', once: 'rel-action', 'journal-dir': journals() };
    const step = await runStep(work, inputs, secrets);
    expect(step.code, step.stdout + step.stderr).toBe(keyVerdict());
    expectEachOnce();
    const doubt = inDoubtByApp();
    const inDoubt = [...doubt.values()].reduce((n, s) => n + s.size, 0);
    const { outputs } = step;
    expect(Number(outputs.accepted) + Number(outputs['in-doubt']) + Number(outputs['not-sent']) + Number(outputs.rejected)).toBe(2 * COUNT);
    expect(Number(outputs['in-doubt'])).toBe(inDoubt);
    expect(Number(outputs.accepted)).toBe(2 * COUNT - inDoubt);
    expect(outputs.state).toBe(inDoubt > 0 ? 'partly sent' : 'sent');
    const shown = JSON.parse((await runCli(['runs', 'show', killed.global!, '--json'], { env: cliEnv(), cwd: work })).stdout) as { run: { target_runs: { family: { message_ids: string[] } }[] } };
    const familyIds = shown.run.target_runs.flatMap((r) => r.family.message_ids);
    expect(new Set(JSON.parse(outputs['message-ids']!) as string[])).toEqual(new Set(familyIds));
    // The summary says what this attempt did apart from the table of the key.
    for (const profile of ['global', 'india']) expect(step.summary).toContain(`\`${profile}\` (run \`${killed[profile]}\`)`);
    expect(step.summary).toContain('The table counts every run of the key.');
  }, 120_000);
});
