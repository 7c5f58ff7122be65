// The committed action bundle (action/index.js) on Node.js 24, the runtime action.yml names (`using:
// node24`) and the only one GitHub's runners still offer JavaScript actions. Whatever Node.js runs these
// tests, this one runs the bundle on 24; without a Node.js 24 binary it skips and says why.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { parseOutputFile } from '../helpers/github-output.js';
import { NO_NODE24, NODE24 } from '../helpers/node24.js';
import { cleanEnv, runProcess } from '../helpers/run-cli.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const ACTION_YML = fileURLToPath(new URL('../../action.yml', import.meta.url));
const APP = 'node24-app';
const SECRET = 'node24-S3CR3T-5e1d';

let emulator: Emulator;
let work: string;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  work = mkdtempSync(join(tmpdir(), 'pushctl-action24-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
});

it('action.yml runs the bundle on node24', () => {
  expect(readFileSync(ACTION_YML, 'utf8')).toMatch(/^runs:\n {2}using: node24\n {2}main: action\/index\.js$/m);
});

if (!NODE24) console.warn(`action-node24.test.ts skipped: ${NO_NODE24}`);

describe.skipIf(!NODE24)('the action bundle on Node.js 24', () => {
  it('sends, writes its outputs and job summary, and masks the secret', async () => {
    writeFileSync(join(work, 'message.json'), JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'On {{runtime}}' } }));
    const output = join(work, 'github-output');
    const summary = join(work, 'step-summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const inputs = { FILE: 'message.json', VARS: 'runtime=node24', 'APP-ID': APP, 'APP-SECRET': SECRET, 'BASE-URL': emulator.url };
    const env = cleanEnv({
      HOME: work,
      XDG_CONFIG_HOME: join(work, '.config'),
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: work,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name}`, value])),
    });
    const version = await runProcess(NODE24!, ['--version']);
    expect(version.stdout).toMatch(/^v24\./);
    const r = await runProcess(NODE24!, [ACTION], { cwd: work, env });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout.indexOf(`::add-mask::${SECRET}`)).toBe(0);
    const outputs = parseOutputFile(readFileSync(output, 'utf8'));
    const [message] = emulator.messages(APP);
    expect(message!.body).toMatchObject({ notification: { title: 'On node24' } });
    expect(JSON.parse(outputs['message-ids']!)).toEqual([message!.message_id]);
    expect(outputs['exit-code']).toBe('0');
    expect(readFileSync(summary, 'utf8')).not.toBe('');
  });
});
