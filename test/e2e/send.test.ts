import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { closedPort, ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';

// A secret that must never be printed, whatever the mode or the failure.
const CANARY = 'canary-S3CR3T-9f2c41';

let emulator: Emulator;
let home: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, apps: [{ id: 'app-1', secret: CANARY }, { id: 'off', secret: CANARY, disabled: true }], rate: 0 });
  home = mkdtempSync(join(tmpdir(), 'pushctl-e2e-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs the CLI in an empty home/work directory so no real config file is found. */
const cli = (args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> =>
  runCli(args, { env: cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env }), cwd: home, ...(input !== undefined ? { input } : {}) });
const withSecret = { PUSHCTL_APP_SECRET: CANARY };
const target = () => ['--base-url', emulator.url, '--app-id', 'app-1'];
const expectNoCanary = (r: CliResult) => {
  expect(r.stdout).not.toContain(CANARY);
  expect(r.stderr).not.toContain(CANARY);
};

describe('pushctl send against the emulator', () => {
  it('sends and prints only the message_id on stdout (exit 0)', async () => {
    const r = await cli(['send', ...target(), '--all', '--title', 'Hello', '--desc', 'World'], withSecret);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^emu-/);
    expect(r.stderr).toContain(`sent: message_id ${id}`);
    const stored = emulator.messages('app-1').find((m) => m.message_id === id);
    expect(stored?.body).toEqual({ type: 1, time_to_live: 86400, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } });
    expect(stored?.delivered).toBe(true);
    expectNoCanary(r);
  });

  it('dry-run sends "dry_run": true and says nothing was delivered', async () => {
    const r = await cli(['dry-run', ...target(), '--all', '--title', 'Hello'], withSecret);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('nothing was delivered');
    const stored = emulator.messages('app-1').find((m) => m.message_id === r.stdout.trim());
    expect(stored?.dry_run).toBe(true);
    expect(stored?.delivered).toBe(false);
  });

  it('--json prints one document with the message_id and summary', async () => {
    const r = await cli(['send', ...target(), '--client-id', 'a', 'b', '--type', 'data', '-d', 'k=1', '--json'], withSecret);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: true, dry_run: false, exit_code: 0, summary: { batches: { total: 1, accepted: 1 }, recipients: { total: 2, accepted: 2 } } });
    expect(doc.message_ids).toHaveLength(1);
    expect(r.stderr).toBe('');
  });

  it('--quiet prints only the message_id', async () => {
    const r = await cli(['send', ...target(), '--all', '--title', 'q', '--quiet'], withSecret);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^emu-[\w-]+\n$/);
    expect(r.stderr).toBe('');
  });

  it('--verbose shows request and response with the secret as ***', async () => {
    const r = await cli(['send', ...target(), '--all', '--title', 'v', '--verbose'], withSecret);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> Authorization: ***');
    expect(r.stderr).toContain('"title":"v"');
    expect(r.stderr).toContain('< HTTP 200');
    expectNoCanary(r);
  });

  it('exit 4 with the code and its meaning when the service rejects', async () => {
    const wrong = await cli(['send', ...target(), '--all', '--title', 'x'], { PUSHCTL_APP_SECRET: 'not-the-secret' });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('21004 App Secret illegal');
    const disabled = await cli(['send', '--base-url', emulator.url, '--app-id', 'off', '--all', '--title', 'x', '--json'], withSecret);
    expect(disabled.code).toBe(4);
    // Refused for the app, not for the batch: nothing delivered, sent again by a resend once the SDK is on.
    expect(JSON.parse(disabled.stdout)).toMatchObject({ state: 'rejected', batches: [{ status: 'not_sent', code: 21007, meaning: 'app push SDK disabled' }] });
    expectNoCanary(disabled);
  });

  it('--no-validate sends what local checks would refuse, and the emulator answers 21005', async () => {
    const args = [...target(), '--title', 'x', '--country', 'UK'];
    expect((await cli(['send', ...args], withSecret)).code).toBe(3);
    const r = await cli(['send', ...args, '--no-validate'], withSecret);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('21005');
  });

  it('exit 3 and no request for an invalid message, even with --verbose', async () => {
    const before = emulator.stats('app-1').accepted;
    const r = await cli(['send', ...target(), '--all', '--title', 'x', '--small-icon-color', 'red', '--verbose'], withSecret);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('notification.small_icon_color');
    expect(emulator.stats('app-1').accepted).toBe(before);
    expectNoCanary(r);
  });

  it('exit 6 naming every way to supply missing credentials', async () => {
    const noId = await cli(['send', '--base-url', emulator.url, '--all', '--title', 'x'], withSecret);
    expect(noId.code).toBe(6);
    expect(noId.stderr).toMatch(/--app-id.*PUSHCTL_APP_ID.*appId/s);
    const noSecret = await cli(['send', ...target(), '--all', '--title', 'x']);
    expect(noSecret.code).toBe(6);
    expect(noSecret.stderr).toMatch(/PUSHCTL_APP_SECRET.*--app-secret-file.*appSecret/s);
  });

  it('refuses plain http:// to a non-loopback host (exit 6) unless --insecure', async () => {
    const r = await cli(['send', '--base-url', 'http://push.example.com', '--app-id', 'a', '--all', '--title', 'x'], withSecret);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('--insecure');
    expectNoCanary(r);
  });

  it('exit 2 for usage errors', async () => {
    expect((await cli(['send', ...target(), '--all', '--title', 'x', '--batch-size', '5000'], withSecret)).code).toBe(2);
    expect((await cli(['send', ...target(), '--all', '--title', 'x', '--app-secret', CANARY], withSecret)).code).toBe(2);
    expect((await cli(['send', ...target(), '--all', '--client-id', 'x'], withSecret)).code).toBe(2);
  });
});

describe('secret sources, profiles and precedence', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pushctl-cfg-'));
    writeFileSync(join(dir, 'secret.txt'), `${CANARY}\n`);
    writeFileSync(
      join(dir, '.pushctlrc.json'),
      JSON.stringify({ appId: 'wrong-app', baseUrl: 'http://127.0.0.1:1', appSecret: CANARY, profiles: { emu: { appId: 'app-1', baseUrl: emulator.url } } }),
    );
    chmodSync(join(dir, '.pushctlrc.json'), 0o600);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const inDir = (args: string[], env: Record<string, string> = {}, input?: string) =>
    runCli(args, { env: cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...env }), cwd: dir, ...(input !== undefined ? { input } : {}) });

  it('takes the secret from --app-secret-file (trailing newline stripped)', async () => {
    const r = await cli(['send', ...target(), '--app-secret-file', join(dir, 'secret.txt'), '--all', '--title', 'f']);
    expect(r.code).toBe(0);
  });

  it('takes the secret from --app-secret-stdin', async () => {
    const r = await cli(['send', ...target(), '--app-secret-stdin', '--all', '--title', 's'], {}, `${CANARY}\n`);
    expect(r.code).toBe(0);
    expectNoCanary(r);
  });

  it('selects a profile by flag and by environment; flags beat the profile', async () => {
    expect((await inDir(['send', '--profile', 'emu', '--all', '--title', 'p'])).code).toBe(0);
    expect((await inDir(['send', '--all', '--title', 'p'], { PUSHCTL_PROFILE: 'emu' })).code).toBe(0);
    // Without the profile the top level's unreachable base URL is used: a network failure, exit 5.
    const top = await inDir(['send', '--all', '--title', 'p', '--max-attempts', '1']);
    expect(top.code).toBe(5);
    // An environment variable beats the profile: a wrong app ID gives 21002.
    const env = await inDir(['send', '--profile', 'emu', '--all', '--title', 'p'], { PUSHCTL_APP_ID: 'nope' });
    expect(env.code).toBe(4);
    expect(env.stderr).toContain('21002');
    // A flag beats the environment.
    expect((await inDir(['send', '--profile', 'emu', '--app-id', 'app-1', '--all', '--title', 'p'], { PUSHCTL_APP_ID: 'nope' })).code).toBe(0);
    expectNoCanary(env);
  });

  it('config shows each setting and its source, the secret only as set', async () => {
    const r = await inDir(['config', '--profile', 'emu']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('app-1');
    expect(r.stdout).toMatch(/profile emu/);
    expectNoCanary(r);
    const json = await inDir(['config', '--profile', 'emu', '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toContain(CANARY);
  });
});

describe('faults against a scripted server', () => {
  let server: ScriptedServer | undefined;
  afterAll(async () => server?.close());
  const send = async (url: string, extra: string[] = []) =>
    cli(['send', '--base-url', url, '--app-id', 'a1', '--client-id', ' c1 ', 'c1', 'c2', ...extra], withSecret);

  it('sends exactly the documented request', async () => {
    server = await startScriptedServer([ok('m-1')]);
    const r = await send(server.url, ['--title', 'Hi', '--ttl', '1h']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('m-1\n');
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/message/push/a1');
    expect(req!.headers.authorization).toBe(CANARY);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toMatch(/^pushctl\/\d+\.\d+\.\d+/);
    expect(JSON.parse(req!.body)).toEqual({ type: 1, time_to_live: 3600, condition: { type: 2, client_ids: ['c1', 'c2'] }, notification: { title: 'Hi' } });
    await server.close();
    server = undefined;
  });

  const faults: [string, Parameters<typeof startScriptedServer>[0], number, RegExp][] = [
    ['502 with an HTML page', [{ status: 502, body: '<html><body>Bad Gateway</body></html>', headers: { 'Content-Type': 'text/html' } }], 5, /502/],
    ['an empty 200', [{ status: 200, body: '' }], 5, /\? in doubt: /],
    ['a reset connection', [{ action: 'reset' }], 5, /\? in doubt: /],
    ['a 21005 body under HTTP 400', [{ status: 400, body: { status: 21005, message: 'bad body' } }], 4, /21005 message illegal/],
  ];
  for (const [name, script, code, text] of faults) {
    it(`survives ${name}: exit ${code}, sent once, no stack trace`, async () => {
      const s = await startScriptedServer(script);
      try {
        const r = await send(s.url, ['--title', 'x']);
        expect(r.code).toBe(code);
        expect(r.stderr).toMatch(text);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        expect(s.requests).toHaveLength(1);
        expectNoCanary(r);
      } finally {
        await s.close();
      }
    });
  }

  it('a server that never answers: exit 5 within the timeout, sent once', async () => {
    const s = await startScriptedServer([{ action: 'hang' }]);
    try {
      const r = await send(s.url, ['--title', 'x', '--timeout', '300ms']);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/timed out|timeout/i);
      expect(s.requests).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('connection refused on loopback: exit 5 at once (nothing listens there), marked not sent', async () => {
    const port = await closedPort();
    // A remote refusal is retried (the client tests cover the full five with a virtual clock); on loopback
    // nothing listens, and retrying cannot start anything there.
    const r = await cli(['send', '--base-url', `http://127.0.0.1:${port}`, '--app-id', 'a1', '--all', '--title', 'x', '--json', '--max-attempts', '2'], withSecret);
    expect(r.code).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.batches[0]).toMatchObject({ status: 'not_sent', attempts: 1 });
    expect(doc.batches[0].reason).toMatch(/ECONNREFUSED/);
  });
});
