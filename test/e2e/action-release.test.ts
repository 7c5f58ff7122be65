// The action bundle with a release event's payload and with a named audience (both docs/behaviour.md#audiences),
// run as the runner runs it, against the emulator.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runStep } from '../helpers/action-step.js';
import { FIXTURES } from '../helpers/run-cli.js';

const SECRET = 'release-S3CR3T-0a9b';
const APP = 'rel-app';
const MESSAGE = JSON.stringify({
  type: 1,
  time_to_live: 3600,
  condition: { type: 0 },
  notification: { title: '{{release.name}}', desc: '{{release.text}}', open_type: '2', open_content: '{{release.url}}' },
  data: { tag: '{{release.tag}}' },
});

let emulator: Emulator;
let work: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.clear();
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-release-'));
  writeFileSync(join(work, 'announce.json'), MESSAGE);
  return () => rmSync(work, { recursive: true, force: true });
});

const target = () => ({ 'base-url': emulator.url, 'app-id': APP, 'app-secret': SECRET });
const onEvent = (name: string, fixture: string) => {
  copyFileSync(join(FIXTURES, fixture), join(work, 'event.json'));
  return { GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: join(work, 'event.json') };
};

describe('the action on a GitHub release', () => {
  it('fills {{release.*}} from the recorded release event: Markdown notes as plain text', async () => {
    const run = await runStep(work, { file: 'announce.json', ...target() }, onEvent('release', 'release-event.json'));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [sent] = emulator.messages(APP);
    expect(sent!.body.notification).toMatchObject({
      title: 'Weather 2.4: hourly forecasts',
      open_content: 'https://github.com/octo-org/weather-app/releases/tag/v2.4.0',
      desc: "What's new\n• Hourly forecasts for the next 48 hours (#412)\n• Rain alerts now arrive in your language\n• Fixed: the widget showed --° after midnight\nFull Changelog: https://github.com/octo-org/weather-app/compare/v2.3.0...v2.4.0",
    });
    expect(sent!.body.data).toEqual({ tag: 'v2.4.0' });
  });

  it('cuts long notes at the display limit and warns in the log', async () => {
    const payload = { release: { tag_name: 'v3.0.0', name: 'Three', html_url: 'https://example.com/r', body: Array.from({ length: 30 }, (_, i) => `* item ${i} of the long list`).join('\n') } };
    writeFileSync(join(work, 'event.json'), JSON.stringify(payload));
    const run = await runStep(work, { file: 'announce.json', ...target() }, { GITHUB_EVENT_NAME: 'release', GITHUB_EVENT_PATH: join(work, 'event.json') });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^::warning title=pushctl%3A release notes cut::release\.text: the release notes are \d+ characters as plain text; cut to the 240/m);
    expect(Array.from(emulator.messages(APP)[0]!.body.notification!.desc!)).toHaveLength(240);
  });

  it('refuses {{release.*}} on a push event, naming the event; nothing is sent', async () => {
    const run = await runStep(work, { file: 'announce.json', ...target() }, onEvent('push', 'push-event.json'));
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('{{release.name}} at notification.title is filled from a release, but this workflow run was started by a "push" event');
    expect(run.outputs['exit-code']).toBe('2');
    expect(emulator.messages(APP)).toEqual([]);
  });

  it('validate on a pull request takes sample values from vars instead', async () => {
    const vars = 'release.tag=v0.0.0\nrelease.name=Sample\nrelease.url=https://example.com\nrelease.text=Notes';
    const run = await runStep(work, { file: 'announce.json', mode: 'validate', vars }, { GITHUB_EVENT_NAME: 'pull_request' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });
});

describe('the action with a named audience', () => {
  it('input to sends to the audience of the workspace config file', async () => {
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ audiences: { 'my-phones': { client_ids_file: 'phones.txt' } } }));
    writeFileSync(join(work, 'phones.txt'), 'phone-1\nphone-2\n');
    writeFileSync(join(work, 'hello.json'), JSON.stringify({ type: 1, time_to_live: 60, notification: { title: 'Hi' } }));
    const run = await runStep(work, { file: 'hello.json', to: 'my-phones', ...target() });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(emulator.messages(APP)[0]!.body.condition).toEqual({ type: 2, client_ids: ['phone-1', 'phone-2'] });
    expect(run.outputs.accepted).toBe('2');
  });

  it('an unknown audience fails the step with the names, exit 2', async () => {
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ audiences: { 'my-phones': { client_ids: ['p'] } } }));
    writeFileSync(join(work, 'hello.json'), JSON.stringify({ type: 1, time_to_live: 60, notification: { title: 'Hi' } }));
    const run = await runStep(work, { file: 'hello.json', to: 'testers', ...target() });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('audiences: my-phones');
    expect(emulator.messages(APP)).toEqual([]);
  });
});
