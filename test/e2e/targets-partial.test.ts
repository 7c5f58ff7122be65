// Targets of several that failed in part, against two real emulators: a message without client IDs that
// went out in part (variants to a condition: one request per language, at an emulator that lets a single
// request a second through) must be counted as its own "by language" lines count it; a target refused
// outright must leave the run's error with its next step.
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

it('a target the service refused for its app gives the run\'s error its own next step: fix the app, then resend', async () => {
  const env = cleanEnv({ HOME: dir, PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: 'not-the-secret' });
  const r = await runCli(['send', '--client-id', 'a', '--title', 'Hi', '--profile', 'eu,us', '--json'], { env, cwd: dir });
  expect(r.code, r.stderr).toBe(7);
  const document = JSON.parse(r.stdout) as { error: { message: string; hint?: string }; resend_command?: string };
  // The service delivered nothing for us: its recipient is left, for the resend once the secret is right.
  expect(document.resend_command).toMatch(/^pushctl resend \S+$/);
  // The error is the run's headline, as the table heads it for people, with the targets it names.
  expect(document.error.message).toBe('partly sent: 1 of 2 targets in full; not in full: us');
  expect(document.error.hint).toMatch(/^us: the secret does not match this app ID.*; then send what is left with: pushctl resend \S+$/);
  const human = await runCli(['send', '--client-id', 'b', '--title', 'Hi', '--profile', 'eu,us'], { env, cwd: dir });
  expect(human.code, human.stderr).toBe(7);
  expect(human.stderr).toMatch(/^✗ partly sent: 1 of 2 targets in full \(run \S+\)$/m);

  // runs show of the family, or of one of its targets, gives the one command that finishes every target: a
  // target's entry carries none of its own (a resend of a target's journal is the family's resend too).
  const shown = await runCli(['runs', 'show', document.resend_command!.split(' ')[2]!, '--json'], { env, cwd: dir });
  const { run } = JSON.parse(shown.stdout) as { run: { resend_command?: string; target_runs: Record<string, unknown>[] } };
  expect(run.resend_command).toBe(document.resend_command);
  for (const target of run.target_runs) {
    for (const key of ['resend_command', 'include_in_doubt_command', 'in_doubt', 'left_out_of_command']) expect(target, key).not.toHaveProperty(key);
  }
});
