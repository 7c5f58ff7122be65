// Both regions, in each user's language, once (docs/behaviour.md#targets, docs/behaviour.md#variants): the
// built binary sends one message with French and Portuguese variants to two `pushctl serve --devices`
// emulators (one per region, profiles global and india), its recipients a CSV fleet with a language column.
// Counted on each emulator's record: every device gets exactly one message, in its language where a variant
// exists and the base message otherwise; a re-run with the same key sends nothing; a run SIGKILLed half-way
// and resent finishes every target exactly once, but for the IDs its journals mark in doubt.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { wholeLines } from '../helpers/record-lines.js';

const REGIONS = { global: { app: 'global-app', secret: 'global-S3CRET-77aa' }, india: { app: 'india-app', secret: 'india-S3CRET-18cf' } } as const;
type Region = keyof typeof REGIONS;
const LANGUAGES = ['en-GB', 'fr', 'fr-CA', 'pt-BR', 'sw', 'hi-IN', ''];
const TITLES = { base: 'Version 3 is out', fr: 'La version 3 est là', pt: 'A versão 3 chegou' };
/** The title a device of `language` must get: its variant's (exact tag, then bare language), else the base one. */
const titleFor = (language: string): string => (language.startsWith('fr') ? TITLES.fr : language.startsWith('pt') ? TITLES.pt : TITLES.base);
const MESSAGE = {
  type: 1,
  time_to_live: 3600,
  notification: { title: TITLES.base, desc: 'Faster sync' },
  variants: { fr: { notification: { title: TITLES.fr } }, pt: { notification: { title: TITLES.pt } } },
};

let dir: string;
const served = new Map<Region, ServedCli & { record: string }>();
/** Each region's devices: client ID → language. */
const fleets = new Map<Region, Map<string, string>>();

const csv = (rows: [string, string][], country: string) =>
  `client_id,country,language,brand,model,os_version,app_version\n${rows.map(([id, language]) => `${id},${country},${language},SAMSUNG,SM-A546B,34,3.0.0`).join('\n')}\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-targets-variants-'));
  for (const [region, country] of [['global', 'GB'], ['india', 'IN']] as const) {
    const rows = Array.from({ length: 3000 }, (_, i): [string, string] => [`${region}-${i}`, LANGUAGES[i % LANGUAGES.length]!]);
    fleets.set(region, new Map(rows));
    const devices = join(dir, `${region}-devices.csv`);
    writeFileSync(devices, csv(rows, country));
    const record = join(dir, `${region}.jsonl`);
    const { app, secret } = REGIONS[region];
    // Answers after 100-200 ms: a run at a low rate is still sending when it is killed.
    served.set(region, { ...(await serveCli(['--app', `${app}:${secret}`, '--devices', devices, '--record', record, '--rate', '0', '--chaos', 'latency=100-200ms'])), record });
  }
});

afterAll(async () => {
  for (const s of served.values()) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One send's files: the message, every device of both fleets as one CSV with languages, a config, a journal directory. */
function trial(name: string) {
  const message = join(dir, `${name}.json`);
  writeFileSync(message, JSON.stringify(MESSAGE));
  const recipients = join(dir, `${name}-recipients.csv`);
  const all = [...fleets.values()].flatMap((fleet) => [...fleet.entries()]);
  writeFileSync(recipients, `client_id,language\n${all.map(([id, language]) => `${id},${language}`).join('\n')}\n`);
  const config = join(dir, `${name}.pushctl.json`);
  const profile = (region: Region) => ({ appId: REGIONS[region].app, appSecret: REGIONS[region].secret, baseUrl: served.get(region)!.url });
  writeFileSync(config, JSON.stringify({ profiles: { global: profile('global'), india: profile('india') } }), { mode: 0o600 });
  const journals = join(dir, `${name}-runs`);
  return { env: cleanEnv({ HOME: dir, PUSHCTL_JOURNAL_DIR: journals }), journals, config, send: ['send', '-c', config, '-f', message, '--client-ids-file', recipients, '--profile', 'global,india', '--once', name] };
}

/** What `region`'s emulator delivered to its own devices since `from` (a line of its record): the titles per device. */
function delivered(region: Region, from = 0): Map<string, string[]> {
  const fleet = fleets.get(region)!;
  const got = new Map<string, string[]>();
  const record = served.get(region)!.record;
  const lines = wholeLines(record).slice(from);
  for (const line of lines) {
    const message = JSON.parse(line) as { delivered: boolean; body: { notification?: { title?: string }; condition: { client_ids?: string[] } } };
    if (!message.delivered) continue;
    for (const id of message.body.condition.client_ids ?? []) if (fleet.has(id)) got.set(id, [...(got.get(id) ?? []), message.body.notification?.title ?? '']);
  }
  return got;
}
const recordLines = (region: Region) => (existsSync(served.get(region)!.record) ? readFileSync(served.get(region)!.record, 'utf8').split('\n').filter(Boolean).length : 0);

/** The IDs each app's runs left in doubt (an attempt started, its answer never recorded), by app ID. */
function inDoubt(journals: string, app: string): Set<string> {
  const doubt = new Set<string>();
  for (const name of readdirSync(journals).filter((f) => f.endsWith('.jsonl'))) {
    const journal = readJournal(readFileSync(join(journals, name), 'utf8'));
    if (journal.header?.app_id !== app) continue;
    for (const r of journal.results) if (r.status === 'in_doubt') for (const id of r.clientIds) doubt.add(id);
  }
  return doubt;
}

/** Every device of `region` got its language's title exactly once — those in `doubt` (never resent) at most once. */
function expectEachDeviceOnce(region: Region, from: number, doubt: ReadonlySet<string> = new Set()): void {
  const got = delivered(region, from);
  const wrong: string[] = [];
  for (const [id, language] of fleets.get(region)!) {
    const titles = got.get(id) ?? [];
    const ok = doubt.has(id) ? titles.length <= 1 : titles.length === 1;
    if (!ok || titles.some((title) => title !== titleFor(language))) wrong.push(`${id} (${language || 'no language'}): ${JSON.stringify(titles)}`);
  }
  expect(wrong.slice(0, 5), `${region}: ${wrong.length} devices not reached exactly once in their language`).toEqual([]);
}

describe('send --profile global,india with variants to a CSV fleet (two emulators, the built binary)', () => {
  it('every device gets exactly one message in its language; a re-run with the same key sends nothing', async () => {
    const t = trial('release-3');
    const from = { global: recordLines('global'), india: recordLines('india') };
    const first = await runCli([...t.send, '--json'], { env: t.env, cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const doc = JSON.parse(first.stdout) as { targets: { profile: string; state: string; variants: { label: string }[] }[] };
    expect(doc.targets.map((target) => [target.profile, target.state, target.variants.map((v) => v.label)])).toEqual([
      ['global', 'sent', ['fr', 'pt', 'base']],
      ['india', 'sent', ['fr', 'pt', 'base']],
    ]);
    expectEachDeviceOnce('global', from.global);
    expectEachDeviceOnce('india', from.india);

    const again = await runCli([...t.send, '--json'], { env: t.env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { skipped: boolean }).skipped).toBe(true);
    expectEachDeviceOnce('global', from.global);
    expectEachDeviceOnce('india', from.india);
  }, 120_000);

  for (const finish of ['resend <family>', 'the same send again'] as const) {
    it(`SIGKILL half-way, then ${finish}: every target finishes, each device once in its language but those in doubt`, async () => {
      const t = trial(finish === 'resend <family>' ? 'release-3-kill' : 'release-3-rerun');
      const from = { global: recordLines('global'), india: recordLines('india') };
      let child!: ChildProcess;
      const done = runCli([...t.send, '--rate', '8', '--batch-size', '100'], { env: t.env, cwd: dir, onSpawn: (c) => (child = c) });
      // Killed once each emulator has delivered a part of the run to its own devices.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if ((['global', 'india'] as const).every((region) => delivered(region, from[region]).size >= 500)) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      child.kill('SIGKILL');
      await done;
      for (const region of ['global', 'india'] as const) expect(delivered(region, from[region]).size, `${region} had devices left`).toBeLessThan(3000);

      const listed = JSON.parse((await runCli(['runs', '--json'], { env: t.env, cwd: dir })).stdout) as { runs: { run_id: string; state: string }[] };
      expect(listed.runs[0]!.state).toBe('killed');
      // The preview of the family's resend: what each target would send, and nothing sent.
      const lines = { global: recordLines('global'), india: recordLines('india') };
      const preview = await runCli(['resend', listed.runs[0]!.run_id, '-c', t.config, '--dry-run', '--json'], { env: t.env, cwd: dir });
      expect(preview.code, preview.stderr).toBe(0);
      // Each target's row is the document a resend of that run alone previews, with its profile.
      const previewed = JSON.parse(preview.stdout) as { dry_run: boolean; targets: { profile: string; would_send: boolean; recipients: number; not_sent: number; run_id: string }[] };
      expect(previewed.dry_run).toBe(true);
      expect(previewed.targets.map((target) => [target.profile, target.would_send, target.recipients > 0, target.recipients === target.not_sent])).toEqual([['global', true, true, true], ['india', true, true, true]]);
      expect({ global: recordLines('global'), india: recordLines('india') }).toEqual(lines);
      const finished = finish === 'resend <family>' ? await runCli(['resend', listed.runs[0]!.run_id, '-c', t.config], { env: t.env, cwd: dir }) : await runCli(t.send, { env: t.env, cwd: dir });
      const doubt = { global: inDoubt(t.journals, REGIONS.global.app), india: inDoubt(t.journals, REGIONS.india.app) };
      // A resend says what it sent; a --once re-run answers for the key, which the kill may have left partly
      // sent (requests in doubt): then 7, as the key's next re-run says (docs/behaviour.md#once).
      const keyLeftInDoubt = finish === 'the same send again' && (doubt.global.size > 0 || doubt.india.size > 0);
      expect(finished.code, finished.stderr).toBe(keyLeftInDoubt ? 7 : 0);
      expectEachDeviceOnce('global', from.global, doubt.global);
      expectEachDeviceOnce('india', from.india, doubt.india);
    }, 180_000);
  }
});
