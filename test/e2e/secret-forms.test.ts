// Secrets in forms the filter used to get wrong, through the built CLI: the emulator's public demo secret
// (masking it made the commands pushctl prints unpastable), and secrets too short to mask.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pushctl-secret-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...extra });

describe("the emulator's demo secret is not masked (it is public, and masking it broke the printed commands)", () => {
  it('serve prints a pasteable Try it line with PUSHCTL_APP_SECRET=demo-secret exported', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: env({ PUSHCTL_APP_SECRET: 'demo-secret' }) as NodeJS.ProcessEnv, cwd: dir });
    onTestFinished(() => void (child.exitCode === null && process.kill(child.pid!, 'SIGKILL')));
    let stderr = '';
    await new Promise<void>((resolve) => child.stderr.setEncoding('utf8').on('data', (d: string) => ((stderr += d), stderr.includes('Ctrl-C') && resolve())));
    expect(stderr).toMatch(/^ {2}PUSHCTL_APP_SECRET=demo-secret pushctl send --base-url http:\/\/127\.0\.0\.1:\d+ --app-id demo-app /m);
    expect(stderr).not.toContain('***');
    process.kill(child.pid!, 'SIGTERM');
  });

  it('--help shows demo-app / demo-secret', async () => {
    const r = await runCli(['--help'], { env: env({ PUSHCTL_APP_SECRET: 'demo-secret' }), cwd: dir });
    expect(r.stdout).toContain('app demo-app / demo-secret');
  });
});

describe('a secret of one or two characters', () => {
  it('is not masked elsewhere (it would hide those letters everywhere), with one warning', async () => {
    const r = await runCli(['config'], { env: env({ PUSHCTL_APP_SECRET: 'se' }), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^app secret +set \(env PUSHCTL_APP_SECRET\)$/m);
    expect(r.stderr.match(/^warning: the app secret \(env PUSHCTL_APP_SECRET\) is only 2 characters long: too short to mask/gm)).toHaveLength(1);
  });

  it("a profile's own secret variable: the warning names that variable", async () => {
    const config = join(dir, 'eu.pushctlrc.json');
    writeFileSync(config, JSON.stringify({ profiles: { eu: { appId: 'demo-app' } } }));
    const r = await runCli(['config', '--config', config, '--profile', 'eu'], { env: env({ PUSHCTL_APP_SECRET_EU: 'se' }), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/^warning: the app secret \(env PUSHCTL_APP_SECRET_EU\) is only 2 characters long: too short to mask/gm)).toHaveLength(1);
  });

  it('is refused by init: exit 6, one line, nothing written', async () => {
    const secretFile = join(dir, 'short-secret');
    writeFileSync(secretFile, 'y\n');
    const config = join(dir, 'short.pushctlrc.json');
    const r = await runCli(['init', '--yes', '--app-id', 'my-app', '--app-secret-file', secretFile, '--config', config], { env: env(), cwd: dir });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^error: the app secret from flag --app-secret-file \S+ is only 1 character long, which is not an app secret/);
    expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(existsSync(config)).toBe(false);
  });
});
