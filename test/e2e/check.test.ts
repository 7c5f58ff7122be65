// `pushctl check` against the real emulator (`pushctl serve` on port 0): good credentials, a wrong secret,
// no secret, nothing listening; human and --json; and checkCommand called in-process as the action does.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { CHECK_CLIENT_ID, check as checkRun } from '../../src/commands/check/run.js';

let serve: ChildProcess;
let url: string;
let dir: string;
let closedUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-check-'));
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--rate', '0'], { env: cleanEnv({ HOME: dir }) as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.setEncoding('utf8').on('data', (d: string) => ((out += d), out.includes('\n') && resolve(out.trim())));
    serve.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  // A port that was free a moment ago and has nobody listening now.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  closedUrl = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  serve.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string | undefined>) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_BASE_URL: url, PUSHCTL_APP_ID: 'demo-app', ...extra });
const check = (extra: Record<string, string | undefined>, args: string[] = []) => runCli(['check', ...args], { env: env(extra), cwd: dir });

describe('pushctl check', () => {
  it('a base URL set beside the region: check and config say the region is not used, human and --json', async () => {
    for (const args of [['--base-url', url], ['--base-url', url, '--region', 'india']]) {
      const checked = await check({ PUSHCTL_BASE_URL: undefined, PUSHCTL_APP_SECRET: 'demo-secret' }, args);
      expect(checked.code, checked.stderr).toBe(0);
      const shown = await runCli(['config', ...args], { env: env({ PUSHCTL_BASE_URL: undefined }), cwd: dir });
      for (const text of [checked.stdout + checked.stderr, shown.stdout]) {
        expect(text).toMatch(/^region +(global \(default\)|india \(flag --region\)), not used: the base URL is set \(flag --base-url\)$/m);
        expect(text).toMatch(/^base URL +http:\/\/127\.0\.0\.1:\d+ \(flag --base-url\)$/m);
      }
      const json = JSON.parse((await runCli(['config', '--json', ...args], { env: env({ PUSHCTL_BASE_URL: undefined }), cwd: dir })).stdout) as { region: { used: boolean } };
      expect(json.region.used).toBe(false);
    }
    // Nothing set: the region's URL is the one used, and said so.
    const plain = await runCli(['config', '--json'], { env: env({ PUSHCTL_BASE_URL: undefined }), cwd: dir });
    expect((JSON.parse(plain.stdout) as { region: { used: boolean } }).region.used).toBe(true);
  });

  it("checks one profile of a two-region setup with the profile's own secret variable, as --profile a,b reads it", async () => {
    const work = mkdtempSync(join(dir, 'regions-'));
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: 'demo-app', baseUrl: url }, us: { appId: 'demo-app', baseUrl: url } } }));
    const own = { PUSHCTL_BASE_URL: undefined, PUSHCTL_APP_ID: undefined, PUSHCTL_APP_SECRET_EU: 'demo-secret', PUSHCTL_APP_SECRET_US: 'not-this-one' };
    const r = await runCli(['check', '--profile', 'eu'], { env: env(own), cwd: work });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^app secret\s+set \(env PUSHCTL_APP_SECRET_EU\)$/m);
    // The profile's own variable is the more specific: it wins over PUSHCTL_APP_SECRET.
    const both = await runCli(['check', '--profile', 'eu', '--json'], { env: env({ ...own, PUSHCTL_APP_SECRET: 'wrong-for-eu' }), cwd: work });
    expect(both.code, both.stdout).toBe(0);
    expect(JSON.parse(both.stdout).settings.app_secret).toEqual({ set: true, source: 'env PUSHCTL_APP_SECRET_EU' });
  });

  it('good credentials: the settings with their sources, then one line; a dry run to a client ID no device has', async () => {
    const r = await check({ PUSHCTL_APP_SECRET: 'demo-secret' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^app ID\s+demo-app \(env PUSHCTL_APP_ID\)$/m);
    expect(r.stdout).toMatch(/^app secret\s+set \(env PUSHCTL_APP_SECRET\)$/m);
    expect(r.stdout).toMatch(/✓ credentials accepted: app demo-app at 127\.0\.0\.1:\d+ \(a dry run, nothing delivered\)\n$/);
    expect(r.stdout + r.stderr).not.toContain('demo-secret');
    const stored = (await (await fetch(`${url}/v1/emulator/messages?app=demo-app`)).json()) as { messages: { dry_run: boolean; delivered: boolean; body: { condition: { client_ids: string[] } } }[] };
    const last = stored.messages.at(-1)!;
    expect(last).toMatchObject({ dry_run: true, delivered: false });
    expect(last.body.condition.client_ids).toEqual([CHECK_CLIENT_ID]);
  });

  it('good credentials, --json: the one envelope', async () => {
    const r = await check({ PUSHCTL_APP_SECRET: 'demo-secret' }, ['--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: true, exit_code: 0, probe: { app_id: 'demo-app', dry_run: true }, answer: { code: 200 }, settings: { app_id: { value: 'demo-app', source: 'env PUSHCTL_APP_ID' }, app_secret: { set: true } } });
    expect(Object.keys(doc).slice(0, 2)).toEqual(['ok', 'exit_code']);
  });

  it('a wrong secret: exit 4, the code 21004 and what to do', async () => {
    const r = await check({ PUSHCTL_APP_SECRET: 'not-the-secret' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: rejected by the service: 21004 App Secret illegal/m);
    expect(r.stderr).toMatch(/^hint: .*copy it again/m);
    expect(r.stdout + r.stderr).not.toContain('not-the-secret');
    const doc = JSON.parse((await check({ PUSHCTL_APP_SECRET: 'not-the-secret' }, ['--json'])).stdout);
    expect(doc).toMatchObject({ ok: false, exit_code: 4, answer: { code: 21004 }, error: { message: expect.stringContaining('21004') } });
  });

  it('no secret: exit 6 naming where to set it, and no request made', async () => {
    const before = ((await (await fetch(`${url}/v1/emulator/health`)).json()) as { accepted: number }).accepted;
    const r = await check({});
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(/^app secret\s+unset$/m);
    expect(r.stderr).toMatch(/^error: no app secret configured/m);
    expect(r.stderr).toContain('PUSHCTL_APP_SECRET');
    expect(((await (await fetch(`${url}/v1/emulator/health`)).json()) as { accepted: number }).accepted).toBe(before);
    expect(JSON.parse((await check({}, ['--json'])).stdout)).toMatchObject({ ok: false, exit_code: 6 });
  });

  it('nothing listening: exit 5 at once, pointing at pushctl serve', async () => {
    const r = await check({ PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_BASE_URL: closedUrl });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: no answer from the service: .*ECONNREFUSED/m);
    expect(r.stderr).toMatch(/^error: .*\(ECONNREFUSED\): nothing listens there \(app demo-app at /m);
    expect(r.stderr.match(/^error:/gm)).toHaveLength(1);
    // The URL came from the environment: the way out names that setting, not a flag that was never given; and
    // it is said once, in the hint, not again in the error.
    expect(r.stderr).toMatch(/^hint: start the local emulator with `pushctl serve`, or fix the base URL \(env PUSHCTL_BASE_URL\), then run pushctl check again$/m);
    expect(r.stderr.match(/pushctl serve/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/--base-url/);
  });

  it('check/run.ts check(): the outcome object the action calls (ctx without stdout: it prints nothing)', async () => {
    const outcome = await checkRun({}, { env: { PUSHCTL_BASE_URL: url, PUSHCTL_APP_ID: 'demo-app', PUSHCTL_APP_SECRET: 'demo-secret', HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }, cwd: dir, stdin: process.stdin, scrubber: { add: () => undefined } });
    expect(outcome).toMatchObject({ ok: true, exitCode: 0, probe: { appId: 'demo-app' } });
  });
});
