// A targeting flag given an empty value (`--country "$COUNTRY"` with the variable unset) against a real
// emulator with simulated devices: it chose every device, as an empty list in the service's targeting means
// "no restriction". The blank-audience accident pushctl exists to prevent; it is a criterion not given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, syntheticFleet, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await createEmulator({ port: 0, rate: 0, fleet: syntheticFleet(50) });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-empty-flag-'));
});

afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (...args: string[]) =>
  runCli(['send', ...args, '--title', 'Only for some', '--base-url', emu.url, '--app-id', 'demo-app'], { env: cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: 'demo-secret' }), cwd: dir });

describe('an empty targeting flag', () => {
  it('alone chooses no one: exit 3, nothing sent, where it reached every simulated device', async () => {
    for (const flag of ['--country', '--language', '--brand', '--os-version']) {
      const result = await send(flag, '');
      expect(result.code, `${flag}: ${result.stderr}`).toBe(3);
      expect(result.stderr).toContain('condition: is required');
    }
    const result = await send('--country', ' , ');
    expect(result.code).toBe(3);
    expect(emu.messages()).toEqual([]);
  });

  it('beside a criterion given is no criterion: the message goes to what the other flag names', async () => {
    emu.clear();
    const result = await send('--country', '', '--language', 'de');
    expect(result.code, result.stderr).toBe(0);
    expect(emu.messages().map((m) => m.body.condition)).toEqual([{ type: 1, targeting: { language: ['de'] } }]);
  });
});
