// A --report path's temporary file after a real SIGKILL of the built CLI: mode 600 while it exists, and
// removed by the next run that writes a report there; files that are not a dead writer's stay.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const SECRET = 'report-temp-S3CRET';
let dir: string;
let emulator: Emulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-report-temp-'));
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret: SECRET }] });
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET });
const temps = () => readdirSync(dir).filter((name) => name.endsWith('.tmp')).sort();

/** Starts a send whose request hangs, waits for its report's temporary file, and kills it with SIGKILL. */
async function killMidSend(report: string): Promise<string> {
  const hanging = await startScriptedServer([{ action: 'hang' }]);
  onTestFinished(() => hanging.close());
  const child = spawn(process.execPath, [BIN, 'send', '--base-url', hanging.url, '--app-id', 'app', '--client-id', 'dev-1', 'dev-2', '--title', 'x', '--report', report, '--no-journal'], { cwd: dir, env: env() as NodeJS.ProcessEnv, stdio: 'ignore' });
  const temp = join(dir, `.${report}.${child.pid}.tmp`);
  // Bounded polling (not a timed assertion): the request reaches the server after the report file is opened.
  for (let i = 0; i < 400 && hanging.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(hanging.requests).toHaveLength(1);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGKILL');
  await exited;
  return temp;
}

describe('the temporary file of --report', () => {
  it('is mode 600, survives a SIGKILL, and the next run writing there removes it (and only dead writers\' files)', async () => {
    const temp = await killMidSend('r.json');
    expect(existsSync(temp)).toBe(true);
    expect(statSync(temp).mode & 0o777).toBe(0o600);

    // Files that must stay: a live process's (this test's own), another report's, and a name not ours.
    const live = `.r.json.${process.pid}.tmp`;
    const other = '.other.json.999999.tmp';
    const foreign = '.r.json.backup.tmp';
    for (const name of [live, other, foreign]) writeFileSync(join(dir, name), '{}');

    const r = await runCli(['send', '--base-url', emulator.url, '--app-id', 'app', '--client-id', 'dev-1', '--title', 'x', '--report', 'r.json', '--no-journal'], { cwd: dir, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'r.json'))).toBe(true);
    expect(temps()).toEqual([live, other, foreign].sort());
  });
});
