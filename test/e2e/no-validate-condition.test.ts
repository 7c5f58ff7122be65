// --no-validate sends a message as written, for the service to judge; only its condition must be an object,
// because pushctl puts each batch's client IDs into it (src/commands/shared/prepare-message.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const SECRET = 'no-validate-secret-5d1e';
let emulator: Emulator;
let home: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, apps: [{ id: 'app-1', secret: SECRET }], rate: 0 });
  home = mkdtempSync(join(tmpdir(), 'pushctl-no-validate-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(home, { recursive: true, force: true });
});

const send = (file: string, extra: string[] = []) =>
  runCli(['send', '--base-url', emulator.url, '--app-id', 'app-1', '-f', join(home, file), '--no-validate', '--no-journal', ...extra], {
    env: cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_APP_SECRET: SECRET }),
    cwd: home,
  });

describe('send --no-validate', () => {
  it('refuses a condition that is not an object, naming it, and sends nothing', async () => {
    writeFileSync(join(home, 'bad.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: 'everyone', notification: { title: 'Hi' } }));
    const before = emulator.stats('app-1').accepted;
    const r = await send('bad.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('condition must be an object, even with --no-validate');
    expect(r.stderr).not.toContain('    at ');
    expect(emulator.stats('app-1').accepted).toBe(before);
  });

  it('still sends a message with an object condition as written', async () => {
    writeFileSync(join(home, 'ok.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }));
    const r = await send('ok.json');
    expect(r.code).toBe(0);
  });
});
