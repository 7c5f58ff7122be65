import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serve } from '../../../src/commands/serve/run.js';
import { serveOptionsSchema, type ServeOptions } from '../../../src/commands/serve/options.js';
import { parseOptions } from '../../../src/commands/shared/check-options.js';
import { printServe } from '../../../src/output/serve.js';
import type { Ctx } from '../../../src/context.js';
import { CliError, ExitCode } from '../../../src/errors.js';

function testCtx() {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  let announce: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => (announce = resolve));
  const ctx: Ctx = {
    stdout: { write: (s: string) => (out.push(s), announce(s.trim())) },
    stderr: { write: (s: string) => err.push(s) },
    stdin: Readable.from([]),
    env: {},
    cwd: process.cwd(),
    interrupt: controller.signal,
  };
  return { ctx, out, err, ready, stop: () => controller.abort() };
}

const options = (overrides: Partial<ServeOptions> = {}): ServeOptions => ({
  host: '127.0.0.1',
  port: 0,
  app: [],
  rate: 50,
  maxClientIds: 1000,
  ...overrides,
});
const VALID = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } };

describe('serve', () => {
  it('prints the URL and demo credentials, logs requests, and stops cleanly on interrupt with exit code 0', async () => {
    const t = testCtx();
    const running = serve(options(), t.ctx);
    const url = await t.ready;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const banner = t.err.join('');
    expect(banner).toContain(`listening on ${url}`);
    expect(banner).toContain(`PUSHCTL_APP_SECRET=demo-secret pushctl send --base-url ${url} --app-id demo-app`);

    const res = await fetch(`${url}/v1/message/push/demo-app`, {
      method: 'POST',
      headers: { authorization: 'demo-secret' },
      body: JSON.stringify(VALID),
    });
    expect(await res.json()).toMatchObject({ status: 200 });
    expect(t.err.join('')).toMatch(/POST \/v1\/message\/push\/demo-app -> 200 /);

    t.stop();
    const outcome = await running;
    expect(outcome).toEqual({ exitCode: 0, accepted: 1 });
    printServe(outcome, {}, t.ctx);
    expect(t.err.join('')).toContain('emulator stopped (1 message accepted)');
    expect(t.out).toEqual([`${url}\n`]);
    await expect(fetch(`${url}/v1/emulator/health`)).rejects.toThrow();
  });

  it('on --host 0.0.0.0, says it listens on every address, and gives the URL this machine reaches it at', async () => {
    const t = testCtx();
    const running = serve(options({ host: '0.0.0.0' }), t.ctx);
    const url = await t.ready;
    const port = new URL(url).port;
    const banner = t.err.join('');
    // Not "listening on http://127.0.0.1:…", which would read as loopback only beside the warning.
    expect(banner).toContain(`listening on every address (--host 0.0.0.0), port ${port}; on this machine: ${url}\n`);
    expect(banner).not.toContain(`listening on ${url}`);
    t.stop();
    await running;
  });

  it('serves apps from --app and an apps file, without printing their secrets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-serve-'));
    const file = join(dir, 'apps.json');
    writeFileSync(file, JSON.stringify({ apps: [{ id: 'off', secret: 'file-secret', disabled: true }] }));
    const t = testCtx();
    const running = serve(options({ app: ['mine:flag-secret'], apps: file, rate: 0 }), t.ctx);
    const url = await t.ready;
    const send = async (app: string, secret: string) =>
      ((await (await fetch(`${url}/v1/message/push/${app}`, { method: 'POST', headers: { authorization: secret }, body: JSON.stringify(VALID) })).json()) as {
        status: number;
      }).status;
    expect(await send('mine', 'flag-secret')).toBe(200);
    expect(await send('off', 'file-secret')).toBe(21007);
    expect(await send('demo-app', 'demo-secret')).toBe(21002);
    t.stop();
    await running;
    const printed = t.err.join('');
    expect(printed).toContain('app off - disabled, answers 21007');
    expect(printed).toContain('PUSHCTL_APP_SECRET=<secret of mine>');
    expect(printed).not.toMatch(/flag-secret|file-secret/);
  });

  it('exits at once when interrupted before it is ready', async () => {
    const t = testCtx();
    t.stop();
    await expect(serve(options(), t.ctx)).resolves.toMatchObject({ exitCode: 0 });
  });

  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  };

  it('refuses bad --app syntax as a usage error with a fix', async () => {
    const error = await failure(serve(options({ app: ['no-secret'] }), testCtx().ctx));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.hint).toMatch(/--app my-app:my-secret/);
  });

  it('refuses bad numbers as usage errors (its options schema, before serve runs)', async () => {
    expect((await failure(Promise.resolve().then(() => parseOptions(serveOptionsSchema, { port: 70_000 })))).exitCode).toBe(ExitCode.usage);
    expect((await failure(Promise.resolve().then(() => parseOptions(serveOptionsSchema, { rate: '-1' })))).exitCode).toBe(ExitCode.usage);
  });

  it('refuses a missing or malformed apps file, duplicate apps and an unwritable record file as configuration errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-serve-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"apps":[{"id":"a"}]}');
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, '[{"id":"a","secret":"s"}]');
    for (const o of [
      options({ apps: join(dir, 'missing.json') }),
      options({ apps: bad }),
      options({ apps: dup, app: ['a:t'] }),
      options({ record: join(dir, 'no', 'such', 'dir.jsonl') }),
    ]) {
      const error = await failure(serve(o, testCtx().ctx));
      expect(error.exitCode).toBe(ExitCode.config);
      expect(error.hint).toBeTruthy();
    }
  });

  it('explains a port already in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await failure(serve(options({ port }), testCtx().ctx));
      expect(error.exitCode).toBe(ExitCode.config);
      expect(error.message).toContain('EADDRINUSE');
      expect(error.hint).toMatch(/--port 0/);
    } finally {
      blocker.close();
    }
  });

  it('refuses at start an empty certificate, and a key that does not match the certificate (exit 6, naming the file and the fix)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-serve-tls-'));
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rsa.key', '-out', 'rsa.pem', '-days', '2', '-subj', '/CN=127.0.0.1']);
    run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ec.key']);
    writeFileSync(join(dir, 'empty.pem'), '');
    const cases: [Partial<ServeOptions>, RegExp][] = [
      [{ tlsCert: join(dir, 'empty.pem'), tlsKey: join(dir, 'rsa.key') }, /--tls-cert .*empty\.pem/],
      [{ tlsCert: join(dir, 'rsa.pem'), tlsKey: join(dir, 'ec.key') }, /--tls-key .*ec\.key/],
    ];
    for (const [tls, names] of cases) {
      const t = testCtx();
      const error = await failure(serve(options(tls), t.ctx));
      expect(error.exitCode).toBe(ExitCode.config);
      expect(error.message).toMatch(names);
      expect(error.message).not.toContain('\n');
      expect(error.hint).toMatch(/PEM/);
      // Refused before listening: no URL was printed.
      expect(t.out).toEqual([]);
    }
  });
});

