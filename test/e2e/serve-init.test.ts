import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli } from '../helpers/serve-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-serve-init-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...extra });

describe('pushctl serve (built binary)', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`serves the demo app, logs each request, and stops cleanly on ${signal}`, async () => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: env() as NodeJS.ProcessEnv, cwd: dir });
      // A failed assertion must not leave the server running after the test.
      onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
      let stdout = '';
      let stderr = '';
      // Ready when the URL is on stdout and the banner (which ends with how to stop) on stderr.
      await new Promise<void>((resolve) => {
        const check = () => stdout.includes('\n') && stderr.includes('Ctrl-C') && resolve();
        child.stderr.setEncoding('utf8').on('data', (d: string) => ((stderr += d), check()));
        child.stdout.setEncoding('utf8').on('data', (d: string) => ((stdout += d), check()));
      });
      const url = stdout.trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(stderr).toContain('demo-app');
      expect(stderr).toContain('demo-secret');

      const sent = await runCli(['send', '--base-url', url, '--app-id', 'demo-app', '--all', '--title', 'Hi'], { env: env({ PUSHCTL_APP_SECRET: 'demo-secret' }), cwd: dir });
      expect(sent.code).toBe(0);
      const listed = (await (await fetch(`${url}/v1/emulator/messages?app=demo-app`)).json()) as { messages: { message_id: string }[] };
      expect(listed.messages.map((m) => m.message_id)).toContain(sent.stdout.trim());

      child.kill(signal);
      const [code] = (await once(child, 'close')) as [number | null];
      expect(code).toBe(0);
      expect(stderr).toMatch(/POST \/v1\/message\/push\/demo-app -> 200/);
    });
  }

  it('refuses a bad --app with a one-line usage error (exit 2)', async () => {
    const r = await runCli(['serve', '--port', '0', '--app', 'no-colon'], { env: env(), cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--app/m);
  });
});

describe('pushctl init (built binary)', () => {
  it('writes a config file for scripts, refuses to overwrite without --force, and stores a secret with mode 600', async () => {
    const first = await runCli(['init', '--app-id', 'my-app', '--region', 'india', '--yes'], { env: env(), cwd: dir });
    expect(first.code).toBe(0);
    const path = join(dir, '.pushctlrc.json');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ appId: 'my-app', region: 'india' });

    const again = await runCli(['init', '--app-id', 'other', '--yes'], { env: env(), cwd: dir });
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('--force');

    const secret = 'init-secret-0b7a';
    const forced = await runCli(['init', '--app-id', 'other', '--app-secret-stdin', '--yes', '--force'], { env: env(), cwd: dir, input: `${secret}\n` });
    expect(forced.code).toBe(0);
    expect(forced.stdout + forced.stderr).not.toContain(secret);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).appSecret).toBe(secret);

    const shown = await runCli(['config'], { env: env(), cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('other');
    expect(shown.stdout).not.toContain(secret);
  });

  it('--force replaces the settings given and keeps the others: adding a secret never moves an India app to global', async () => {
    const work = mkdtempSync(join(dir, 'force-'));
    const path = join(work, '.pushctlrc.json');
    expect((await runCli(['init', '--app-id', 'my-app', '--region', 'india', '--yes'], { env: env(), cwd: work })).code).toBe(0);
    const secret = 'init-secret-5c2e';
    const added = await runCli(['init', '--app-secret-stdin', '--yes', '--force'], { env: env(), cwd: work, input: `${secret}\n` });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ appId: 'my-app', region: 'india', appSecret: secret });
    expect(added.stdout).toMatch(/updated .* \(appSecret; mode 600\)/);
    // The region and the base URL are one setting: giving one replaces the other.
    const moved = await runCli(['init', '--base-url', 'http://127.0.0.1:8787', '--yes', '--force', '--profile', 'p'], { env: env(), cwd: work });
    expect(moved.code, moved.stderr).toBe(0);
    const local = await runCli(['init', '--base-url', 'http://127.0.0.1:8787', '--yes', '--force'], { env: env(), cwd: work });
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ appId: 'my-app', appSecret: secret, baseUrl: 'http://127.0.0.1:8787', profiles: { p: { baseUrl: 'http://127.0.0.1:8787' } } });
    const back = await runCli(['init', '--region', 'global', '--app-id', 'p-app', '--yes', '--force', '--profile', 'p'], { env: env(), cwd: work });
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles).toEqual({ p: { appId: 'p-app', region: 'global' } });
  });
});

describe('pushctl serve --host', () => {
  it('warns, before listening, that a non-loopback address exposes every message (192.0.2.1 is no address of this machine, so nothing listens)', async () => {
    const r = await runCli(['serve', '--host', '192.0.2.1', '--port', '0'], { env: cleanEnv() });
    expect(r.stderr).toContain('warning: --host 192.0.2.1 is not loopback: anyone who can reach this address can read every message');
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('cannot listen on 192.0.2.1');
  });

  it('--devices with a bad file is exit 6 naming the file, the line and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-devices-'));
    writeFileSync(join(dir, 'd.csv'), 'client_id,country,language,brand,model,os_version,app_version\na,GB\n');
    const r = await runCli(['serve', '--port', '0', '--devices', join(dir, 'd.csv')], { env: cleanEnv() });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('d.csv: line 2: 2 fields, expected 7');
  });

  it('--devices with the client_id,language CSV that send takes: its devices are reached by language', async () => {
    const file = join(dir, 'langs.csv');
    writeFileSync(file, 'Language,Client_ID\nde,phone-de\nen-GB,phone-gb\n');
    const served = await serveCli(['--rate', '0', '--devices', file]);
    onTestFinished(() => served.stop());
    const r = await runCli(['send', '--base-url', served.url, '--app-id', 'demo-app', '--language', 'de', '--title', 'Hallo', '--json'], { env: env({ PUSHCTL_APP_SECRET: 'demo-secret' }), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const answer = await (await fetch(`${served.url}/v1/emulator/audience?condition=${encodeURIComponent(JSON.stringify({ type: 1, targeting: { language: ['de'] } }))}`)).json();
    expect(answer).toMatchObject({ reached: 1, fleet_size: 2 });
  });

  it('--tls-cert with an empty certificate is refused at start: exit 6, one line naming the file and the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-tls-'));
    spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=127.0.0.1'], { cwd: dir, stdio: 'ignore' });
    writeFileSync(join(dir, 'empty.pem'), '');
    const r = await runCli(['serve', '--port', '0', '--tls-cert', join(dir, 'empty.pem'), '--tls-key', join(dir, 'key.pem')], { env: cleanEnv() });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    const errors = r.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`--tls-cert ${join(dir, 'empty.pem')} is empty`);
    expect(r.stderr).toMatch(/PEM/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('pushctl init (built binary)', () => {
  it('--profile --yes in a folder with no config file writes the profile (was refused as already present)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-init-profile-'));
    const r = await runCli(['init', '--app-id', 'demo-app', '--base-url', 'http://127.0.0.1:8787', '--profile', 'emu', '--yes'], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.pushctlrc.json'), 'utf8'))).toEqual({ profiles: { emu: { appId: 'demo-app', baseUrl: 'http://127.0.0.1:8787' } } });
    // A comma separates profiles everywhere --profile is read, so no profile can be named with one.
    const list = await runCli(['init', '--app-id', 'demo-app', '--profile', 'eu,us', '--yes'], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('error: --profile eu,us names 2 profiles; init writes one at a time');
    expect(list.stderr).toContain('hint: pushctl init --profile eu ..., then pushctl init --profile us ...');
    expect(JSON.parse(readFileSync(join(dir, '.pushctlrc.json'), 'utf8')).profiles).not.toHaveProperty(['eu,us']);
    // A profile's secret for a run of several profiles is its own variable: PUSHCTL_APP_SECRET is refused there.
    expect(r.stderr).toContain('warning: the app secret is not stored: set PUSHCTL_APP_SECRET_EMU, or pass --app-secret-file <path>, when sending');
  });
});

/** Runs `pushctl init` on a pseudo-terminal (script), answering each prompt when it appears. */
function initOnTerminal(dir: string, answers: [prompt: string, reply: string][]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} init`, '/dev/null'], { cwd: dir, env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }) as NodeJS.ProcessEnv });
    let out = '';
    let next = 0;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // Each reply goes once its prompt has been printed (and only after the replies before it).
      while (next < answers.length && out.split(answers[next]![0]).length - 1 > answers.slice(0, next).filter(([p]) => p === answers[next]![0]).length) {
        child.stdin.write(answers[next]![1]);
        next++;
      }
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe.skipIf(spawnSync('script', ['--version']).status !== 0)('pushctl init on a terminal', () => {
  it('asks again, saying why, for an empty App ID, and offers the local emulator as a base URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-init-tty-'));
    const r = await initOnTerminal(dir, [['App ID: ', '\r'], ['App ID: ', 'demo-app\r'], ['Region or base URL', 'http://127.0.0.1:8787\r'], ['(y/N)', 'n\r']]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('an App ID is needed');
    expect(r.out).toContain("the local emulator's http://127.0.0.1:8787 (start it with pushctl serve)");
    expect(JSON.parse(readFileSync(join(dir, '.pushctlrc.json'), 'utf8'))).toEqual({ appId: 'demo-app', baseUrl: 'http://127.0.0.1:8787' });
  });

  it('Ctrl-C at a question exits 130 and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-init-tty-'));
    const r = await initOnTerminal(dir, [['App ID: ', '\x03']]);
    expect(r.code, r.out).toBe(130);
    expect(r.out).toContain('nothing was written');
    expect(() => readFileSync(join(dir, '.pushctlrc.json'))).toThrow();
  });
});
