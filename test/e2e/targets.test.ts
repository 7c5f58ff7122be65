// Several targets in one run (docs/behaviour.md#targets), for real: the built binary against two `pushctl
// serve` processes, one per region (profiles global and india of one config file), counting on each
// emulator's side how often each client ID was delivered.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { closedPort } from '../helpers/scripted-server.js';
import { deliveredCounts } from '../helpers/record-lines.js';

const REGIONS = {
  global: { app: 'global-app', secret: 'global-S3CRET-4f1a' },
  india: { app: 'india-app', secret: 'india-S3CRET-09bd' },
} as const;
type Region = keyof typeof REGIONS;

let dir: string;
const served = new Map<Region, ServedCli & { record: string }>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-targets-'));
  for (const region of Object.keys(REGIONS) as Region[]) {
    const record = join(dir, `${region}.jsonl`);
    const { app, secret } = REGIONS[region];
    // Answers after 100-200 ms: a run of a few thousand IDs at a low rate is still sending when it is killed.
    served.set(region, { ...(await serveCli(['--app', `${app}:${secret}`, '--record', record, '--rate', '0', '--chaos', 'latency=100-200ms', '--chaos-seed', '7'])), record });
  }
});

afterAll(async () => {
  for (const s of served.values()) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A trial's own IDs, journal directory and config file; `profiles` changes what a profile holds. */
function trial(name: string, count: number, profiles: Partial<Record<Region, object>> = {}, top: object = {}) {
  const ids = Array.from({ length: count }, (_, i) => `${name}-${i}`);
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, `${ids.join('\n')}\n`);
  const config = join(dir, `${name}.pushctl.json`);
  const profile = (region: Region) => ({ appId: REGIONS[region].app, appSecret: REGIONS[region].secret, baseUrl: served.get(region)!.url, ...profiles[region] });
  writeFileSync(config, JSON.stringify({ ...top, profiles: { global: profile('global'), india: profile('india') } }), { mode: 0o600 });
  const journals = join(dir, `${name}-runs`);
  const env = cleanEnv({ HOME: dir, PUSHCTL_JOURNAL_DIR: journals });
  const send = ['send', '-c', config, '--title', 'Release 2.0', '--desc', 'Out now', '--client-ids-file', file];
  return { ids, file, config, journals, env, send };
}

/** How often each of `ids` was delivered by `region`'s emulator. */
function deliveries(region: Region, ids: readonly string[]): number[] {
  const counts = deliveredCounts(served.get(region)!.record);
  return ids.map((id) => counts.get(id) ?? 0);
}

/** The IDs each app's runs left in doubt, by app ID (an attempt started, its answer never recorded). */
function inDoubtByApp(journals: string): Map<string, Set<string>> {
  const doubt = new Map<string, Set<string>>();
  for (const name of readdirSync(journals).filter((f) => f.endsWith('.jsonl'))) {
    const journal = readJournal(readFileSync(join(journals, name), 'utf8'));
    const app = journal.header!.app_id;
    for (const r of journal.results) if (r.status === 'in_doubt') for (const id of r.clientIds) doubt.set(app, (doubt.get(app) ?? new Set()).add(id));
  }
  return doubt;
}

function expectEachOnce(region: Region, ids: readonly string[], inDoubt: ReadonlySet<string> = new Set()): void {
  const counts = deliveries(region, ids);
  expect(counts.filter((n) => n > 1).length, `${region}: IDs delivered twice`).toBe(0);
  const missing = ids.filter((id, i) => !inDoubt.has(id) && counts[i] !== 1);
  expect(missing, `${region}: IDs not delivered exactly once`).toEqual([]);
}

/** Starts a send of both targets at a low rate and SIGKILLs it once each emulator has delivered some of it. */
async function killMidRun(t: ReturnType<typeof trial>, key: string): Promise<void> {
  let child!: ChildProcess;
  const done = runCli([...t.send, '--profile', 'global,india', '--once', key, '--rate', '8', '--batch-size', '100'], { env: t.env, cwd: dir, onSpawn: (c) => (child = c) });
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if ((['global', 'india'] as const).every((region) => deliveries(region, t.ids).filter((n) => n > 0).length >= 2000)) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
  });
  child.kill('SIGKILL');
  await done;
  for (const region of ['global', 'india'] as const) expect(deliveries(region, t.ids).filter((n) => n === 0).length, `${region} had recipients left`).toBeGreaterThan(0);
}

const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, unknown> & { targets: Record<string, unknown>[] };

/** Both targets sent what the killed run left, and every ID went out once but those in doubt; returns those. */
/**
 * Both targets resumed, each ID once but those the kill left in doubt. A resend's rows say what it sent; a
 * `--once` re-run's say the key's state (docs/behaviour.md#once): partly sent where the kill left some in doubt.
 */
function expectBothResumedOnce(result: CliResult, t: { ids: readonly string[]; journals: string }, once = false): Map<string, Set<string>> {
  const doubt = inDoubtByApp(t.journals);
  const state = (app: string) => (once && (doubt.get(app)?.size ?? 0) > 0 ? 'partly_sent' : 'sent');
  expect(json(result).targets.map((target) => [target.profile, target.state, target.resumed_from !== undefined])).toEqual([
    ['global', state(REGIONS.global.app), true],
    ['india', state(REGIONS.india.app), true],
  ]);
  expectEachOnce('global', t.ids, doubt.get(REGIONS.global.app));
  expectEachOnce('india', t.ids, doubt.get(REGIONS.india.app));
  return doubt;
}

describe('send --profile global,india (two emulators, the built binary)', () => {
  it('sends the message to each target exactly once; a re-run with the same --once key sends nothing; runs shows the family as one line', async () => {
    const t = trial('once', 2500);
    const first = await runCli([...t.send, '--profile', 'global,india', '--once', 'release-2.0', '--json'], { env: t.env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const doc = json(first);
    expect(doc.targets.map((target) => [target.profile, target.app_id, target.base_url, target.state])).toEqual([
      ['global', REGIONS.global.app, served.get('global')!.url, 'sent'],
      ['india', REGIONS.india.app, served.get('india')!.url, 'sent'],
    ]);
    expect(doc.run_id).toBe(doc.targets[0]!.run_id);
    expectEachOnce('global', t.ids);
    expectEachOnce('india', t.ids);

    // The flag repeated is the same list; the key covers both targets: nothing is sent to either.
    const again = await runCli([...t.send, '--profile', 'global', '--profile', 'india', '--once', 'release-2.0', '--json'], { env: t.env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(json(again).skipped).toBe(true);
    expect(json(again).targets.map((target) => target.state)).toEqual(['skipped', 'skipped']);
    expectEachOnce('global', t.ids);
    expectEachOnce('india', t.ids);

    const runs = await runCli(['runs'], { env: t.env, cwd: dir });
    expect(runs.stdout).toContain(`${String(doc.run_id)}  sent, 2 targets`);
    expect(runs.stdout.split('\n').filter((line) => line.includes('Release 2.0'))).toHaveLength(1);
    const shown = await runCli(['runs', 'show', String(doc.targets[1]!.run_id)], { env: t.env, cwd: dir });
    expect(shown.stdout).toContain(`run ${String(doc.run_id)} (sent, 2 targets: global, india)`);
    expect(shown.stdout).toMatch(/target global: run .*\n[\s\S]*target india: run /);
    const shownJson = await runCli(['runs', 'show', String(doc.run_id), '--json'], { env: t.env, cwd: dir });
    expect((JSON.parse(shownJson.stdout) as { run: { target_runs: { profile: string }[] } }).run.target_runs.map((r) => r.profile)).toEqual(['global', 'india']);
    // The family's line names every target's profile, as it names every app and host, not the first alone.
    const familyLine = (JSON.parse(shownJson.stdout) as { run: { profile: string; app_id: string } }).run;
    expect(familyLine).toMatchObject({ profile: 'global, india', app_id: `${REGIONS.global.app}, ${REGIONS.india.app}` });
    const listed = (JSON.parse((await runCli(['runs', '--json'], { env: t.env, cwd: dir })).stdout) as { runs: { run_id: string; profile: string }[] }).runs;
    expect(listed.find((r) => r.run_id === doc.run_id)?.profile).toBe('global, india');
  }, 60_000);

  it('--once says "sending to" only for what sends now: not for a target, nor a run, the key found done', async () => {
    const t = trial('said', 2);
    const destination = (region: Region) => `sending to ${new URL(served.get(region)!.url).host} `;
    const first = await runCli([...t.send, '--profile', 'global', '--once', 'said-1'], { env: t.env, cwd: dir });
    expect(first.stderr).toContain(destination('global'));
    const again = await runCli([...t.send, '--profile', 'global', '--once', 'said-1'], { env: t.env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already done/);
    expect(again.stderr).not.toContain('sending to');
    // The same key over both targets: global's run is found done, india's sends now.
    const both = await runCli([...t.send, '--profile', 'global,india', '--once', 'said-1'], { env: t.env, cwd: dir });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stderr).not.toContain(destination('global'));
    expect(both.stderr).toContain(destination('india'));
  });

  it('each target\'s "sending to" line names its profile, as its other lines do: two profiles may send to one host', async () => {
    const t = trial('named', 1);
    const line = (region: Region) => `profile ${region}: sending to ${new URL(served.get(region)!.url).host} `;
    for (const once of [[], ['--once', 'named-1']]) {
      const result = await runCli([...t.send, '--profile', 'global,india', ...once], { env: t.env, cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(line('global'));
      expect(result.stderr).toContain(line('india'));
      expect(result.stderr).not.toMatch(/^sending to/m);
    }
  });

  it("the start of a run id that only the family's target runs share names the family, as `runs` lists it on one line", async () => {
    const t = trial('prefix', 2);
    const family = await runCli([...t.send, '--profile', 'global,india', '--json'], { env: t.env, cwd: dir });
    expect(family.code, family.stderr).toBe(0);
    const [lead, other] = json(family).targets.map((target) => String(target.run_id));
    let shared = 0;
    while (lead![shared] === other![shared]) shared++;
    const prefix = lead!.slice(0, shared);
    const shown = await runCli(['runs', 'show', prefix], { env: t.env, cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`run ${lead} (sent, 2 targets: global, india)`);
    const resent = await runCli(['resend', prefix], { env: t.env, cwd: dir });
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stderr).toMatch(/target global: nothing left to send/);
  });

  it('runs --limit counts lines, a family one line read whole: neither its older target cut off nor a line lost', async () => {
    const t = trial('limit', 3);
    expect((await runCli([...t.send, '--profile', 'global'], { env: t.env, cwd: dir })).code).toBe(0);
    const family = await runCli([...t.send, '--profile', 'global,india', '--json'], { env: t.env, cwd: dir });
    expect(family.code, family.stderr).toBe(0);
    const familyId = String(json(family).run_id);
    const lines = async (limit: string) => (await runCli(['runs', '--limit', limit], { env: t.env, cwd: dir })).stdout.split('\n').filter((line) => line.includes('Release 2.0'));
    expect(await lines('1')).toEqual([expect.stringMatching(new RegExp(`^${familyId}  sent, 2 targets  6/6 `))]);
    const two = await lines('2');
    expect(two).toHaveLength(2);
    expect(two[0]).toMatch(new RegExp(`^${familyId}  sent, 2 targets  6/6 `));
    expect(two[1]).toMatch(/^\S+ +sent +3\/3 /);
  });

  it('PUSHCTL_PROFILE=global,india chooses the same targets as the flag; people read a row per target', async () => {
    const t = trial('env', 3);
    const result = await runCli(t.send, { env: { ...t.env, PUSHCTL_PROFILE: 'global,india' }, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^✓ sent: 2 targets \(run \d{8}-\d{6}-[0-9a-f]{4}\)$/m);
    expect(result.stderr).toMatch(new RegExp(`^  global +${REGIONS.global.app} +${served.get('global')!.url} +\\S+ +sent +3/3 +-$`, 'm'));
    expect(result.stderr).toMatch(new RegExp(`^  india +${REGIONS.india.app} +${served.get('india')!.url} +\\S+ +sent +3/3 +-$`, 'm'));
    // The message_ids on stdout, one a line: one request to each target.
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expectEachOnce('global', t.ids);
    expectEachOnce('india', t.ids);
  }, 30_000);

  it('a profile name holding control characters is printed escaped on every line, the per-language lines too', async () => {
    const t = trial('escaped', 2);
    const odd = 'glob\u001b[31mal';
    const profile = (region: Region) => ({ appId: REGIONS[region].app, appSecret: REGIONS[region].secret, baseUrl: served.get(region)!.url });
    writeFileSync(t.config, JSON.stringify({ profiles: { [odd]: profile('global'), india: profile('india') } }), { mode: 0o600 });
    const message = join(dir, 'escaped.json');
    writeFileSync(message, JSON.stringify({ type: 1, time_to_live: 60, notification: { title: 'Hi' }, variants: { fr: { notification: { title: 'Salut' } } } }));
    const csv = join(dir, 'escaped.csv');
    writeFileSync(csv, `client_id,language\n${t.ids[0]},fr\n${t.ids[1]},en\n`);
    const result = await runCli(['send', '-c', t.config, '-f', message, '--client-ids-file', csv, '--profile', `${odd},india`], { env: t.env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('glob\\x1b[31mal by language:');
    expect(result.stderr).not.toContain('\u001b');
  }, 30_000);

  it('--to names an audience of the config file\'s top level, the same for every target', async () => {
    const t = trial('audience', 0, {}, { audiences: { phones: { client_ids: ['phone-1', 'phone-2'] } } });
    const result = await runCli(['send', '-c', t.config, '--title', 'Hi', '--desc', 'There', '--to', 'phones', '--profile', 'global,india', '--json'], { env: t.env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expectEachOnce('global', ['phone-1', 'phone-2']);
    expectEachOnce('india', ['phone-1', 'phone-2']);
  }, 30_000);

  it('the config file is read once for the whole run: a warning about it is said once, not once per target', async () => {
    const t = trial('read-once', 0, {}, { audiences: { phones: { client_ids: ['phone-1'] } } });
    // Secrets in a file that others may read: worth a warning, once.
    chmodSync(t.config, 0o644);
    const result = await runCli(['send', '-c', t.config, '--title', 'Hi', '--desc', 'There', '--to', 'phones', '--profile', 'global,india'], { env: t.env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.includes('readable by group or others'))).toHaveLength(1);
  }, 30_000);

  it('dry-run --profile global,india: each service checks the message, nothing is delivered', async () => {
    const t = trial('dry', 3);
    const result = await runCli(['dry-run', ...t.send.slice(1), '--profile', 'global,india', '--json'], { env: t.env, cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ dry_run: true, targets: [{ profile: 'global', state: 'sent' }, { profile: 'india', state: 'sent' }] });
    // Each service answered the request it checked with a message_id.
    expect(json(result).targets.map((target) => (target.message_ids as string[]).length)).toEqual([1, 1]);
    expect(deliveries('global', t.ids)).toEqual([0, 0, 0]);
    expect(deliveries('india', t.ids)).toEqual([0, 0, 0]);
  }, 30_000);

  it('SIGKILL mid-run, then resend <family>: every target gets every ID exactly once, but those in doubt', async () => {
    const t = trial('kill', 6000);
    await killMidRun(t, 'release-kill');

    const listed = await runCli(['runs', '--json'], { env: t.env, cwd: dir });
    const family = (JSON.parse(listed.stdout) as { runs: { run_id: string; state: string; target_runs?: unknown[] }[] }).runs[0]!;
    expect(family.state).toBe('killed');
    expect(family.target_runs).toHaveLength(2);
    // The commands shown are the family's (what is not sent, and with those in doubt), the one resend that
    // finishes every target, and are ones resend accepts: no --profile, which it refuses for several targets.
    const shown = await runCli(['runs', 'show', family.run_id, '--json'], { env: t.env, cwd: dir });
    const { run } = JSON.parse(shown.stdout) as { run: { resend_command?: string; include_in_doubt_command?: string } };
    const commands = JSON.stringify(run).match(/pushctl resend [^"]*/g) ?? [];
    // (with those in doubt only when the kill left some: a request on the wire)
    expect(commands).toEqual([run.resend_command, run.include_in_doubt_command].filter((command) => command !== undefined));
    expect(run.resend_command).toMatch(new RegExp(`^pushctl resend ${family.run_id}\\b`));
    for (const command of commands) expect(command).not.toContain('--profile');

    chmodSync(t.config, 0o644);
    const resent = await runCli(['resend', family.run_id, '-c', t.config, '--json'], { env: t.env, cwd: dir });
    expect(resent.code, resent.stderr).toBe(0);
    // One config file, read once for both targets: its warning is said once.
    expect(resent.stderr.split('\n').filter((line) => line.includes('readable by group or others'))).toHaveLength(1);
    const doubt = expectBothResumedOnce(resent, t);

    // The key now finds every target done: nothing more to either.
    const again = await runCli([...t.send, '--profile', 'global,india', '--once', 'release-kill', '--json'], { env: t.env, cwd: dir });
    expect(json(again).targets.map((target) => target.state)).toEqual(['skipped', 'skipped']);
    expectEachOnce('global', t.ids, doubt.get(REGIONS.global.app));
    expectEachOnce('india', t.ids, doubt.get(REGIONS.india.app));
  }, 120_000);

  it('SIGKILL mid-run, resent by a journal\'s path from a shell with another journal directory: the key\'s re-run then finds every target done', async () => {
    const t = trial('elsewhere', 6000);
    await killMidRun(t, 'release-elsewhere');
    const listed = JSON.parse((await runCli(['runs', '--json'], { env: t.env, cwd: dir })).stdout) as { runs: { run_id: string }[] };
    const shell = { ...t.env, PUSHCTL_JOURNAL_DIR: join(dir, 'elsewhere-shell-runs') };
    const byPath = await runCli(['resend', join(t.journals, `${listed.runs[0]!.run_id}.jsonl`), '-c', t.config, '--json'], { env: shell, cwd: dir });
    expect(byPath.code, byPath.stderr).toBe(0);
    const doubt = expectBothResumedOnce(byPath, t);
    // The resends are journaled beside the run they finish, where the key's re-run reads its family.
    const again = await runCli([...t.send, '--profile', 'global,india', '--once', 'release-elsewhere', '--json'], { env: t.env, cwd: dir });
    expect(json(again).targets.map((target) => target.state)).toEqual(['skipped', 'skipped']);
    expectEachOnce('global', t.ids, doubt.get(REGIONS.global.app));
    expectEachOnce('india', t.ids, doubt.get(REGIONS.india.app));
  }, 120_000);

  it('SIGKILL mid-run, then the same command again (--once): it resumes every target\'s remainder, exactly once but those in doubt', async () => {
    const t = trial('rerun', 6000);
    await killMidRun(t, 'release-rerun');
    const again = await runCli([...t.send, '--profile', 'global,india', '--once', 'release-rerun', '--json'], { env: t.env, cwd: dir });
    const doubt = expectBothResumedOnce(again, t, true);
    // Each target's remainder went out; what the kill left in doubt is the key's, and the exit status says it.
    expect(again.code, again.stderr).toBe([...doubt.values()].some((ids) => ids.size > 0) ? 7 : 0);
  }, 120_000);

  it('a missing secret in the second profile sends nothing to the first (exit 6, naming the profile)', async () => {
    const t = trial('nosecret', 5, { india: { appSecret: undefined } });
    const result = await runCli([...t.send, '--profile', 'global,india'], { env: t.env, cwd: dir });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: profile india: no app secret configured.*nothing was sent to any target/m);
    expect(result.stderr).toContain('PUSHCTL_APP_SECRET_INDIA');
    // The hint offers only what a run of several targets takes: the profile's own key or variable, never the
    // one secret for every target (refused, exit 2).
    const hint = /^hint: (.*)$/m.exec(result.stderr)![1]!;
    expect(hint).toMatch(/put "appSecret" in "profiles\.india" of .*, or set PUSHCTL_APP_SECRET_INDIA/);
    expect(hint).not.toMatch(/--app-secret-file|--app-secret-stdin|PUSHCTL_APP_SECRET(?!_)/);
    // No target is announced as a destination when none is sent to.
    expect(result.stderr).not.toContain('sending to');
    expect(deliveries('global', t.ids)).toEqual([0, 0, 0, 0, 0]);
    expect(existsSync(t.journals) ? readdirSync(t.journals).filter((f) => f.endsWith('.jsonl')) : []).toEqual([]);
  }, 30_000);

  it('--app-id and --base-url given once for several profiles: refused (exit 2) before any target is announced, nothing sent', async () => {
    const t = trial('sameapp', 5);
    const result = await runCli([...t.send, '--profile', 'global,india', '--app-id', 'one-app', '--base-url', served.get('global')!.url], { env: t.env, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('both send as app one-app');
    expect(result.stderr).toMatch(/^hint: the app ID \(flag --app-id\) and the base URL \(flag --base-url\) apply to every profile/m);
    expect(result.stderr).not.toContain('sending to');
    expect(deliveries('global', t.ids)).toEqual([0, 0, 0, 0, 0]);
  }, 30_000);

  it('two profiles of the config file with the same app and URL: refused (exit 2), the hint points at the file, not at a flag', async () => {
    const t = trial('samecfg', 5, { india: { appId: REGIONS.global.app, baseUrl: served.get('global')!.url } });
    const result = await runCli([...t.send, '--profile', 'global,india'], { env: t.env, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`both send as app ${REGIONS.global.app}`);
    expect(result.stderr).toMatch(/^hint: the config file gives profiles global and india the same "appId" and "baseUrl"/m);
    expect(result.stderr).not.toMatch(/--app-id|PUSHCTL_APP_ID/);
    expect(deliveries('global', t.ids)).toEqual([0, 0, 0, 0, 0]);
  }, 30_000);

  it('one target refused (a wrong app secret on india): exit 7, a row per target, and the other delivered', async () => {
    const t = trial('partly', 4, { india: { appSecret: 'not-the-india-secret' } });
    const result = await runCli([...t.send, '--profile', 'global,india', '--json'], { env: t.env, cwd: dir });
    expect(result.code, result.stderr).toBe(7);
    const doc = json(result);
    expect(doc.targets.map((target) => [target.profile, target.state, target.exit_code])).toEqual([
      ['global', 'sent', 0],
      ['india', 'rejected', 4],
    ]);
    expect((doc.error as { message: string }).message).toContain('india');
    expectEachOnce('global', t.ids);
    expect(deliveries('india', t.ids)).toEqual([0, 0, 0, 0]);
    expect(JSON.stringify(doc)).not.toContain('not-the-india-secret');

    // Under a --once key, a re-run finds india's run refused for its app: that is no success, global is not sent
    // again, and india, which the service delivered nothing to, is tried again: refused again while the secret is wrong.
    const keyed = [...t.send, '--profile', 'global,india', '--once', 'partly-key', '--json'];
    expect((await runCli(keyed, { env: t.env, cwd: dir })).code).toBe(7);
    const again = await runCli(keyed, { env: t.env, cwd: dir });
    expect(again.code, again.stderr).toBe(7);
    expect(json(again).targets.map((target) => [target.profile, target.state, target.exit_code])).toEqual([
      ['global', 'skipped', 0],
      ['india', 'rejected', 4],
    ]);
    expect(deliveries('global', t.ids)).toEqual([2, 2, 2, 2]);
    expect(deliveries('india', t.ids)).toEqual([0, 0, 0, 0]);
  }, 30_000);

  it('a target that could not be reached says why, in its row and in --json, as a single send does', async () => {
    const t = trial('unreachable', 3, { india: { baseUrl: `http://127.0.0.1:${await closedPort()}` } });
    const args = [...t.send, '--profile', 'global,india', '--max-attempts', '1'];
    const human = await runCli(args, { env: t.env, cwd: dir });
    expect(human.code, human.stderr).toBe(7);
    // … and the way out, as a single send's hint says it: nothing listens at that profile's base URL.
    expect(human.stderr).toMatch(/^ {2}india: not sent: could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): nothing listens there .*\(start the local emulator with `pushctl serve`, or fix the base URL \(config .*\(profile india\)\)\)$/m);
    const doc = json(await runCli([...args, '--json'], { env: t.env, cwd: dir }));
    expect((doc.targets[1] as { error?: { message: string } }).error?.message).toContain('could not connect');
    expect((doc.targets[1] as { error?: { hint: string } }).error?.hint).toMatch(/^start the local emulator with `pushctl serve`, or fix the base URL \(config .*\(profile india\)\)$/);
    expect((doc.targets[0] as { error?: unknown }).error).toBeUndefined();
  }, 30_000);

  it('PUSHCTL_PROFILE=global,india, set for sends, is named as a list by a command that takes one profile', async () => {
    const t = trial('onelist', 1);
    for (const command of [['check'], ['config']]) {
      const r = await runCli([...command, '-c', t.config], { env: { ...t.env, PUSHCTL_PROFILE: 'global,india' }, cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('error: env PUSHCTL_PROFILE names several profiles (global, india)');
      expect(r.stderr).toMatch(/\nhint: .*--profile global/);
      expect(r.stderr).not.toContain('does not exist');
    }
  });

  it('a secret given once for several apps is refused before anything is read or sent', async () => {
    const t = trial('onesecret', 2);
    const result = await runCli([...t.send, '--profile', 'global,india'], { env: { ...t.env, PUSHCTL_APP_SECRET: 'shared' }, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PUSHCTL_APP_SECRET is one secret for 2 profiles');
    expect(deliveries('global', t.ids)).toEqual([0, 0]);
  }, 30_000);
});
