// A target of several whose message without client IDs went out in part (variants to a condition: one
// request per language), against two real emulators, one of which lets a single request a second through:
// the table must count what that target's own "by language" lines count, never "none" beside an accepted one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const SECRET = 'partial-S3CR3T-2c7d';
const APP = 'partial-app';
let eu: Emulator;
let us: Emulator;
let dir: string;

beforeAll(async () => {
  eu = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  // One request a second: of three sent at once, the first is accepted and the others answered 22001.
  us = await createEmulator({ port: 0, rate: 1, apps: [{ id: APP, secret: SECRET }] });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-targets-partial-'));
  writeFileSync(join(dir, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: APP, baseUrl: eu.url }, us: { appId: APP, baseUrl: us.url } } }));
  const message = { type: 1, time_to_live: 60, notification: { title: 'New' }, variants: { fr: { notification: { title: 'Nouveau' } }, pt: { notification: { title: 'Novo' } } } };
  writeFileSync(join(dir, 'm.json'), JSON.stringify(message));
});
afterAll(async () => {
  await eu.close();
  await us.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a target's requests accepted in part are counted in its row, as its language lines count them", async () => {
  const env = cleanEnv({ HOME: dir, PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: SECRET });
  const r = await runCli(['send', '-f', 'm.json', '--language', 'fr,pt,en', '--profile', 'eu,us', '--max-attempts', '1'], { env, cwd: dir });
  expect(r.code, r.stderr).toBe(7);
  const accepted = us.messages(APP).length;
  expect(accepted).toBeGreaterThan(0);
  expect(accepted).toBeLessThan(3);
  const row = r.stderr.split('\n').find((line) => /^ +us +/.test(line))!;
  expect(row).toMatch(new RegExp(`partly sent +${accepted}/3 requests +${3 - accepted}$`));
  expect(row).not.toContain('none');
});
