// The README's "Release announcements" recipe, run as GitHub would run it: examples/announce-release.yml's
// pushctl step through this checkout's action bundle, on a recorded `release` event, against two emulators —
// the global and the India app, each with simulated devices in several languages. Every device in a listed
// language gets the announcement exactly once, in its language where a variant says it, in English
// otherwise; a re-run of the job (the journals restored) sends nothing.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, fleetOf, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runProcess } from '../helpers/run-cli.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ACTION = join(ROOT, 'action/index.js');
const EVENT = join(ROOT, 'test/fixtures/release-event.json');
const SECRETS = { global: 'global-S3CR3T-7c1f', india: 'india-S3CR3T-2b9e' };
const NAME = (JSON.parse(readFileSync(EVENT, 'utf8')) as { release: { name: string } }).release.name;

interface Step { id?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string> }
const workflowText = readFileSync(join(ROOT, 'examples/announce-release.yml'), 'utf8');
const workflow = load(workflowText) as { on: unknown; concurrency: unknown; jobs: Record<string, { steps: Step[] }> };
const step = Object.values(workflow.jobs)[0]!.steps.find((s) => s.uses !== undefined && /\/pushctl@/.test(s.uses))!;

const device = (client_id: string, country: string, language: string) => ({ client_id, country, language, brand: 'SAMSUNG', model: 'SM-A546B', os_version: '34', app_version: '2.4.0' });
// A language of each kind: a bare tag, a regional one, one whose variant is its bare language, and one the
// message does not list (which the service cannot reach with this targeting, so it gets nothing).
const FLEETS = {
  global: [device('g-en-gb', 'GB', 'en-GB'), device('g-en', 'US', 'en'), device('g-fr', 'FR', 'fr'), device('g-fr-ca', 'CA', 'fr-CA'), device('g-de', 'DE', 'de')],
  india: [device('i-hi', 'IN', 'hi-IN'), device('i-en', 'IN', 'en-IN'), device('i-ta', 'IN', 'ta-IN')],
};
const TITLES: Record<string, string | undefined> = { en: `${NAME} is out`, fr: `${NAME} est disponible`, hi: `${NAME} अब उपलब्ध है` };

let emulators: Record<'global' | 'india', Emulator>;
let work: string;

beforeAll(async () => {
  emulators = {
    global: await createEmulator({ port: 0, rate: 0, apps: [{ id: 'weather-global', secret: SECRETS.global }], fleet: fleetOf(FLEETS.global) }),
    india: await createEmulator({ port: 0, rate: 0, apps: [{ id: 'weather-india', secret: SECRETS.india }], fleet: fleetOf(FLEETS.india) }),
  };
});
afterAll(async () => {
  await emulators.global.close();
  await emulators.india.close();
});
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-release-'));
  mkdirSync(join(work, 'examples'));
  cpSync(join(ROOT, 'examples/release-languages.json'), join(work, 'examples/release-languages.json'));
  // The recipe's config, each region's URL standing for its emulator.
  const config = JSON.parse(readFileSync(join(ROOT, 'examples/release.pushctlrc.json'), 'utf8')) as { profiles: Record<string, { region?: string; baseUrl?: string }> };
  for (const [name, profile] of Object.entries(config.profiles)) {
    expect(profile.region).toBe(name);
    delete profile.region;
    profile.baseUrl = emulators[name as 'global' | 'india'].url;
  }
  writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify(config));
  return () => rmSync(work, { recursive: true, force: true });
});

/** The step's expressions as GitHub fills them on this release. */
const expand = (value: string) =>
  value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
    const table: Record<string, string> = {
      'secrets.PUSHCTL_APP_SECRET_GLOBAL': SECRETS.global,
      'secrets.PUSHCTL_APP_SECRET_INDIA': SECRETS.india,
      'github.event.release.tag_name': 'v2.4.0',
      'runner.temp': join(work, '.runner-temp'),
    };
    expect(Object.keys(table), `an expression the test does not fill: ${expr}`).toContain(expr);
    return table[expr]!;
  });

async function runStep() {
  const output = join(work, '.github-output');
  writeFileSync(output, '');
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, expand(v)]));
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]));
  const runner = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: join(work, '.step-summary'), GITHUB_EVENT_NAME: 'release', GITHUB_EVENT_PATH: EVENT };
  const ran = await runProcess(process.execPath, [ACTION], { cwd: work, env: cleanEnv({ ...env, ...inputs, ...runner, HOME: work, XDG_CONFIG_HOME: join(work, '.config') }) });
  return { ...ran, outputs: parseOutputFile(readFileSync(output, 'utf8')) };
}

/** What each simulated device received, as the emulator's devices API shows it: the titles, newest first. */
async function received(region: 'global' | 'india'): Promise<Record<string, string[]>> {
  const got: Record<string, string[]> = {};
  for (const { client_id } of FLEETS[region]) {
    const answer = (await (await fetch(`${emulators[region].url}/v1/emulator/devices/${client_id}`)).json()) as { inbox: { title?: string }[] };
    got[client_id] = answer.inbox.map((entry) => entry.title ?? '');
  }
  return got;
}

/** Each device's expected inbox: its language's title once (the base language's for English), or nothing. */
const expected = (region: 'global' | 'india') =>
  Object.fromEntries(FLEETS[region].map((d) => [d.client_id, TITLES[d.language.split('-')[0]!] === undefined ? [] : [TITLES[d.language.split('-')[0]!]!]]));

describe('README: Release announcements (examples/announce-release.yml)', () => {
  it('runs on a published release, one run per release at a time, never cancelled half-way', () => {
    expect(workflow.on).toEqual({ release: { types: ['published'] } });
    expect(workflow.concurrency).toEqual({ group: 'announce-release-${{ github.event.release.tag_name }}', 'cancel-in-progress': false });
  });

  it('announces to both regions in each listed language, exactly once, and a re-run sends nothing', async () => {
    emulators.global.clear();
    emulators.india.clear();
    const first = await runStep();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ skipped: 'false', state: 'sent', 'exit-code': '0' });
    expect(await received('global')).toEqual(expected('global'));
    expect(await received('india')).toEqual(expected('india'));
    // The release's own words reached the phones: its link, and its notes as plain text.
    const [sent] = emulators.global.messages('weather-global');
    expect(sent!.body).toMatchObject({ notification: { open_content: 'https://github.com/octo-org/weather-app/releases/tag/v2.4.0' } });
    expect(JSON.stringify(sent!.body)).not.toMatch(/\{\{|\*\*|##/);
    for (const secret of Object.values(SECRETS)) expect(first.stdout + first.stderr + readFileSync(join(work, '.step-summary'), 'utf8')).not.toContain(secret);
    // The job summary counts each language at each target: one request per listed language with a variant, one for the rest.
    const summary = readFileSync(join(work, '.step-summary'), 'utf8');
    expect(summary).toContain('| profile | language | accepted | left |');
    for (const profile of ['global', 'india']) for (const language of ['fr', 'hi', 'base']) expect(summary).toContain(`| \`${profile}\` | \`${language}\` | 1/1 request | 0 |`);

    const again = await runStep();
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.outputs.skipped).toBe('true');
    expect(await received('global')).toEqual(expected('global'));
    expect(await received('india')).toEqual(expected('india'));
  });

  it('the README shows the recipe, its config and its message as they are in examples/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Release announcements'));
    expect(section.length).toBeLessThan(readme.length);
    const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => m[2]!);
    const body = (file: string) => readFileSync(join(ROOT, 'examples', file), 'utf8');
    // The workflow from its `name:` on (the file's head comment is said in the README's prose).
    expect(blocks).toContain(workflowText.slice(workflowText.indexOf('name: Announce release')));
    expect(blocks).toContain(body('release.pushctlrc.json'));
    expect(blocks).toContain(body('release-languages.json'));
  });
});
