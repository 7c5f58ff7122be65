// The action's `profiles` input (docs/behaviour.md#targets): the committed bundle sends one message to each
// profile's app at its own emulator, a row per target in the job summary, once per key for both.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runStep } from '../helpers/action-step.js';

const GLOBAL = { app: 'act-global', secret: 'act-global-S3CRET-61d0' };
const INDIA = { app: 'act-india', secret: 'act-india-S3CRET-2c7e' };
let global: Emulator;
let india: Emulator;
let work: string;

beforeAll(async () => {
  global = await createEmulator({ port: 0, rate: 0, apps: [{ id: GLOBAL.app, secret: GLOBAL.secret }] });
  india = await createEmulator({ port: 0, rate: 0, apps: [{ id: INDIA.app, secret: INDIA.secret }] });
});
afterAll(async () => {
  await global.close();
  await india.close();
});
beforeEach(() => {
  global.clear();
  india.clear();
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-targets-'));
  // The config file in the repository names each region's app and endpoint; the secrets come from the step's env.
  writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { global: { appId: GLOBAL.app, baseUrl: global.url }, india: { appId: INDIA.app, baseUrl: india.url } } }));
  writeFileSync(join(work, 'release.json'), '{"type":1,"time_to_live":3600,"condition":{"type":0},"notification":{"title":"Version {{version}}","desc":"Out now"}}\n');
  return () => rmSync(work, { recursive: true, force: true });
});

const secrets = { PUSHCTL_APP_SECRET_GLOBAL: GLOBAL.secret, PUSHCTL_APP_SECRET_INDIA: INDIA.secret };

describe('the action with profiles: global,india', () => {
  it('sends to both targets once, a row each in the summary; a re-run with the same once key sends nothing', async () => {
    const inputs = { file: 'release.json', vars: 'version=2.0', profiles: 'global,india', once: 'release-2.0', 'journal-dir': join(work, 'journals') };
    const first = await runStep(work, inputs, secrets);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(global.messages(GLOBAL.app).map((m) => m.delivered)).toEqual([true]);
    expect(india.messages(INDIA.app).map((m) => m.delivered)).toEqual([true]);
    const ids = [global.messages(GLOBAL.app)[0]!.message_id, india.messages(INDIA.app)[0]!.message_id];
    expect(JSON.parse(first.outputs['message-ids']!)).toEqual(ids);
    expect(first.outputs).toMatchObject({ 'exit-code': '0', skipped: 'false', state: 'sent' });
    // A message to all devices has no client IDs to count: its audience is said, as with one profile.
    expect(first.outputs).toMatchObject({ accepted: '0', audience: 'all devices' });
    expect(first.summary).toContain('| outcome | batches | audience |\n| --- | --- | --- |\n| accepted | 2 | all devices |');
    // A target's row says what `send --profile` says of it: a message to all devices, all of it (not "1/1").
    expect(first.summary).toMatch(new RegExp(`\\| \`global\` \\| \`${GLOBAL.app}\` \\| \`${global.url}\` \\| \`\\d{8}-\\d{6}-[0-9a-f]{4}\` \\| sent \\| all of it \\| 0 \\|`));
    expect(first.summary).toMatch(new RegExp(`\\| \`india\` \\| \`${INDIA.app}\` \\| \`${india.url}\` \\| .* \\| sent \\|`));

    const again = await runStep(work, inputs, secrets);
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs).toMatchObject({ skipped: 'true', state: 'skipped', audience: 'all devices' });
    expect(global.messages(GLOBAL.app)).toHaveLength(1);
    expect(india.messages(INDIA.app)).toHaveLength(1);
    // The runner masks the secrets it was given; pushctl writes them nowhere.
    for (const text of [first.stdout, first.stderr, again.stdout, again.stderr]) expect(text).not.toMatch(/S3CRET/);
    for (const name of readdirSync(work, { recursive: true }) as string[]) {
      if (!statSync(join(work, name)).isFile()) continue;
      const text = readFileSync(join(work, name), 'utf8');
      expect(text, name).not.toContain(GLOBAL.secret);
      expect(text, name).not.toContain(INDIA.secret);
    }
  });

  it('a re-run whose key finds one target refused says it already ran, exit 7, never that it is done', async () => {
    const inputs = { file: 'release.json', vars: 'version=2.1', profiles: 'global,india', once: 'release-2.1', 'journal-dir': join(work, 'journals') };
    const wrong = { ...secrets, PUSHCTL_APP_SECRET_INDIA: 'not-the-india-secret' };
    expect((await runStep(work, inputs, wrong)).code).toBe(7);
    const again = await runStep(work, inputs, wrong);
    expect(again.code, again.stdout).toBe(7);
    expect(again.outputs).toMatchObject({ skipped: 'true', 'exit-code': '7' });
    expect(again.stdout).toContain('skipped: once found the run had already run');
    expect(again.stdout).not.toContain('already done');
    expect(again.summary).toContain('already ran (exit 7)');
    expect(global.messages(GLOBAL.app)).toHaveLength(1);
  });

  it('refuses app-secret beside several profiles: one secret would go to every target (exit 2, nothing sent)', async () => {
    const run = await runStep(work, { file: 'release.json', vars: 'version=2.0', profiles: 'global\nindia', 'app-secret': GLOBAL.secret });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('inputs app-secret and profiles: global, india disagree');
    expect(run.stdout).toContain('PUSHCTL_APP_SECRET_GLOBAL, PUSHCTL_APP_SECRET_INDIA');
    expect(global.messages(GLOBAL.app)).toEqual([]);
    expect(india.messages(INDIA.app)).toEqual([]);
  });

  it('mode check and validate take one profile: each region\'s credentials proved in its own step; several are refused', async () => {
    const india1 = await runStep(work, { mode: 'check', profiles: 'india' }, secrets);
    expect(india1.code, india1.stdout + india1.stderr).toBe(0);
    expect(india1.summary).toContain('## pushctl check: succeeded');
    expect(india1.stdout + india1.stderr).toContain(INDIA.app);
    expect(india.messages(INDIA.app).every((m) => !m.delivered)).toBe(true);
    expect(global.messages(GLOBAL.app)).toEqual([]);
    // The profile's own secret is the one checked: a wrong one there is the service's 21004, not another profile's.
    const wrong = await runStep(work, { mode: 'check', profiles: 'india' }, { ...secrets, PUSHCTL_APP_SECRET_INDIA: 'not-the-india-secret' });
    expect(wrong.code).toBe(4);

    // validate's `to` finds an audience of that profile.
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { global: { appId: GLOBAL.app, baseUrl: global.url }, india: { appId: INDIA.app, baseUrl: india.url, audiences: { testers: { client_ids: ['phone-1'] } } } } }));
    writeFileSync(join(work, 'plain.json'), '{"type":1,"time_to_live":3600,"notification":{"title":"Hi","desc":"there"}}\n');
    const valid = await runStep(work, { mode: 'validate', file: 'plain.json', to: 'testers', profiles: 'india' }, secrets);
    expect(valid.code, valid.stdout + valid.stderr).toBe(0);

    const both = await runStep(work, { mode: 'check', profiles: 'global,india' }, secrets);
    expect(both.code).toBe(2);
    expect(both.stdout).toContain('mode check takes one profile');
    expect(global.messages(GLOBAL.app)).toEqual([]);
  });
});
