// send and dry-run name where they send, and warn when a base URL that is neither a vendor region nor
// loopback was chosen (issue 11, "Secrets").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { closedPort } from '../helpers/scripted-server.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const CANARY = 'canary-DEST-77e1c0';
let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, apps: [{ id: 'app-1', secret: CANARY }], rate: 0 });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-dest-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});
const cli = (args: string[]) => runCli(args, { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: CANARY }), cwd: dir });

describe('the destination', () => {
  it.each(['send', 'dry-run'])('%s names the host and the setting that chose it', async (command) => {
    const r = await cli([command, '--app-id', 'app-1', '--base-url', emulator.url, '--all', '--title', 'x']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${command === 'send' ? 'sending to' : 'dry run at'} ${new URL(emulator.url).host} (flag --base-url)`);
    expect(r.stderr).not.toContain('warning');
  });

  it('warns when a config file in the working directory points an env secret at another host', async () => {
    const port = await closedPort();
    const config = join(dir, '.pushctlrc.json');
    writeFileSync(config, JSON.stringify({ appId: 'app-1', baseUrl: `http://0.0.0.0:${port}` }));
    try {
      const r = await cli(['send', '--insecure', '--all', '--title', 'x', '--max-attempts', '1', '--json']);
      expect(r.stderr).toContain(`warning: 0.0.0.0:${port} is not a vendor region host; the base URL was chosen by config ${config}`);
      expect(r.stderr).toContain('app secret from env PUSHCTL_APP_SECRET');
      expect(r.stderr + r.stdout).not.toContain(CANARY);
    } finally {
      rmSync(config);
    }
  });
});
