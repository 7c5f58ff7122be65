// Sending through a real proxy (tinyproxy on loopback): plain http forwarding to the emulator, https through
// a CONNECT tunnel to the emulator serving TLS with a throwaway CA, NO_PROXY, --proxy, and failures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { makeCertificates } from '../helpers/certificates.js';
import { freePort, startTinyProxy, type TinyProxy } from '../helpers/tinyproxy.js';
import { startFailingProxy, type ProxyFailure } from '../helpers/failing-proxy.js';

const SECRET = 'proxy-S3CR3T-41c0';
const PROXY_PASSWORD = 'pr0xy-PW-9911';
const APP = 'px-app';

let emulator: Emulator;
let proxy: TinyProxy;
let dir: string;
let tlsServe: ChildProcess;
let tlsUrl: string;

let certs: ReturnType<typeof makeCertificates>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-proxy-'));
  certs = makeCertificates(dir);
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  proxy = await startTinyProxy();
  // The https emulator, started as a user would: `pushctl serve --tls-cert --tls-key`, its URL read from stdout.
  tlsServe = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--rate', '0', '--app', `${APP}:${SECRET}`, '--tls-cert', certs.cert, '--tls-key', certs.key], {
    env: cleanEnv() as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  tlsUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    tlsServe.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    tlsServe.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
});
afterAll(async () => {
  await proxy?.stop();
  await emulator?.close();
  if (tlsServe && tlsServe.exitCode === null) {
    const exited = new Promise((resolve) => tlsServe.once('exit', resolve));
    process.kill(tlsServe.pid!, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(args, { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: SECRET, ...env }), cwd: dir });
const send = (baseUrl: string) => ['send', '--base-url', baseUrl, '--app-id', APP, '--all', '--title', 'Hi'];
const passedThrough = (before: number) => proxy.requests().slice(before);

describe('sending through a proxy', () => {
  it('serve --tls-cert serves https', () => {
    expect(tlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('http_proxy: the request passes through the proxy to the emulator', async () => {
    const before = proxy.requests().length;
    const r = await cli(send(emulator.url), { http_proxy: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(passedThrough(before)).toEqual([expect.stringMatching(new RegExp(`^POST ${emulator.url}/v1/message/push/${APP} HTTP/1\\.1$`))]);
    expect(emulator.messages(APP).map((m) => m.message_id)).toContain(r.stdout.trim());
  });

  it('NO_PROXY naming the host bypasses the proxy (loopback is proxied unless it says so)', async () => {
    const before = proxy.requests().length;
    const r = await cli(send(emulator.url), { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' });
    expect(r.code, r.stderr).toBe(0);
    expect(passedThrough(before)).toEqual([]);
  });

  it('--proxy works, wins over the environment, and its password is never printed', async () => {
    const before = proxy.requests().length;
    const withPassword = proxy.url.replace('//', `//ci:${PROXY_PASSWORD}@`);
    const r = await cli([...send(emulator.url), '--proxy', withPassword, '--verbose'], { HTTP_PROXY: 'http://127.0.0.1:9' });
    expect(r.code, r.stderr).toBe(0);
    expect(passedThrough(before)).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('pushctl config shows the proxy in effect and where it came from, password masked', async () => {
    const r = await cli(['config', '--base-url', 'https://push.example.com'], { HTTPS_PROXY: `http://ci:${PROXY_PASSWORD}@proxy.internal:3128` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^proxy +http:\/\/ci:\*\*\*@proxy\.internal:3128 \(env HTTPS_PROXY\)$/m);
    expect(r.stdout).not.toContain(PROXY_PASSWORD);
    const direct = await cli(['config', '--base-url', 'https://push.example.com'], { HTTPS_PROXY: 'http://proxy.internal:3128', no_proxy: '.example.com' });
    expect(direct.stdout).toMatch(/^proxy +none: env no_proxy names push\.example\.com$/m);
  });

  it('a proxy on this machine that is down: exit 5 at once (no retries), naming the proxy and the way out', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const r = await cli([...send(emulator.url), '--proxy', down]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`proxy ${down} (flag --proxy) failed`);
    expect(r.stderr).toMatch(/: nothing listens there \(after 1 attempt\)\nhint: start the proxy, or fix flag --proxy\n/);
    expect(r.stderr).not.toContain('retrying');
    expect(r.stderr).toMatch(/\(after 1 attempt\)/);
  });

  it('https goes through a CONNECT tunnel to the TLS emulator, trusting the test CA', async () => {
    const before = proxy.requests().length;
    const port = new URL(tlsUrl).port;
    const r = await cli(send(tlsUrl), { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certs.ca });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^emu-/);
    expect(passedThrough(before)).toEqual([`CONNECT 127.0.0.1:${port} HTTP/1.1`]);
  });

  it('a proxy asking for credentials (407): the error names it; with user:password in the URL the send goes through', async () => {
    const guarded = await startTinyProxy(`BasicAuth ci ${PROXY_PASSWORD}\n`);
    try {
      for (const target of [emulator.url, tlsUrl]) {
        const denied = await cli([...send(target), '--proxy', guarded.url], { NODE_EXTRA_CA_CERTS: certs.ca });
        expect(denied.code, denied.stderr).toBe(5);
        expect(denied.stderr).toContain(`proxy ${guarded.url} (flag --proxy) `);
        expect(denied.stderr).toMatch(/requires authentication \(407\)/);
        const allowed = await cli([...send(target), '--proxy', guarded.url.replace('//', `//ci:${PROXY_PASSWORD}@`)], { NODE_EXTRA_CA_CERTS: certs.ca });
        expect(allowed.code, allowed.stderr).toBe(0);
        expect(allowed.stdout + allowed.stderr).not.toContain(PROXY_PASSWORD);
      }
    } finally {
      await guarded.stop();
    }
  });

  it('certificate checks stay on through the tunnel: without the test CA the send fails', async () => {
    const r = await cli(send(tlsUrl), { HTTPS_PROXY: proxy.url });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/certificate/i);
  });
});

/** The send's --json document: which recipients ended where, and the error. */
interface SendDoc {
  exit_code: number;
  summary: { recipients: Record<string, number> };
  batches: { attempts?: number }[];
  error?: { message: string; hint?: string };
}

const IDS = ['dev-1', 'dev-2'];
const sendIds = (baseUrl: string, extra: string[] = []) => ['send', '--base-url', baseUrl, '--app-id', APP, '--client-id', ...IDS, '--title', 'Hi', '--json', ...extra];

describe('a proxy that does not open the tunnel: nothing was sent, and the error names the proxy', () => {
  /** The send went nowhere: not_sent (never "in_doubt"), exit 5, the proxy named, and nothing reached the service. */
  function expectNotSent(r: CliResult, proxyUrl: string): SendDoc {
    const doc = JSON.parse(r.stdout) as SendDoc;
    expect(doc.exit_code, r.stdout + r.stderr).toBe(5);
    expect(doc.summary.recipients).toMatchObject({ not_sent: IDS.length, in_doubt: 0 });
    expect(doc.error!.message).toContain(`proxy ${proxyUrl} (flag --proxy)`);
    expect(doc.error!.message).toContain('nothing was sent');
    expect(doc.error!.message).not.toMatch(/may have been delivered|no clear answer|base URL or region/);
    return doc;
  }

  it('tinyproxy refusing CONNECT by its rules (403): not retried, points to the ACL and credentials', async () => {
    const strict = await startTinyProxy('ConnectPort 443\n');
    try {
      const before = emulator.messages(APP).length;
      const r = await cli(sendIds(tlsUrl, ['--proxy', strict.url]), { NODE_EXTRA_CA_CERTS: certs.ca });
      const doc = expectNotSent(r, strict.url);
      expect(doc.error!.message).toMatch(/HTTP 403.*refused the tunnel; check the proxy's credentials and its access rules \(ACL\)/);
      expect(doc.batches[0]!.attempts).toBe(1);
      expect(emulator.messages(APP)).toHaveLength(before);
    } finally {
      await strict.stop();
    }
  });

  it('tinyproxy whose ACL denies this client: 403 for the https tunnel and for plain http, pointing to the ACL', async () => {
    const denying = await startTinyProxy('Allow 192.0.2.1\n');
    try {
      const tunnel = await cli(sendIds(tlsUrl, ['--proxy', denying.url]), { NODE_EXTRA_CA_CERTS: certs.ca });
      expect(expectNotSent(tunnel, denying.url).error!.message).toMatch(/HTTP 403.*check the proxy's credentials and its access rules \(ACL\)/);
      const forwarded = await cli(sendIds(emulator.url, ['--proxy', denying.url]));
      const doc = expectNotSent(forwarded, denying.url);
      expect(doc.error!.message).toMatch(/HTTP 403 through proxy .*: the proxy refused the request \(check its credentials and access rules \(ACL\)\)/);
      expect(doc.batches[0]!.attempts).toBe(1);
    } finally {
      await denying.stop();
    }
  });

  it('tinyproxy whose upstream proxy does not exist (its 5xx to CONNECT): not sent, retryable', async () => {
    const broken = await startTinyProxy(`Upstream http 127.0.0.1:${await freePort()}\n`);
    try {
      const r = await cli(sendIds(tlsUrl, ['--proxy', broken.url, '--max-attempts', '1']), { NODE_EXTRA_CA_CERTS: certs.ca });
      const doc = expectNotSent(r, broken.url);
      expect(doc.error!.message).toMatch(/answered CONNECT 127\.0\.0\.1:\d+ with HTTP 5\d\d/);
    } finally {
      await broken.stop();
    }
  });

  const failures: [ProxyFailure, string, RegExp][] = [
    ['close-before-answer', 'hangs up before answering CONNECT', /closed the connection before answering CONNECT/],
    ['answer-407', 'answers CONNECT with 407', /answered CONNECT .* with HTTP 407.*requires authentication \(407\).*HTTPS_PROXY/],
    ['close-after-200', 'hangs up right after answering 200', /closed the tunnel to 127\.0\.0\.1:\d+ before TLS with the service was set up/],
  ];
  for (const [failure, what, expected] of failures) {
    it(`a proxy that ${what}: not sent, named`, async () => {
      const failing = await startFailingProxy(failure);
      try {
        const r = await cli(sendIds(tlsUrl, ['--proxy', failing.url, '--max-attempts', '1']), { NODE_EXTRA_CA_CERTS: certs.ca });
        const doc = expectNotSent(r, failing.url);
        expect(doc.error!.message).toMatch(expected);
        expect(failing.requests[0]).toMatch(/^CONNECT 127\.0\.0\.1:\d+ HTTP\/1\.1$/);
      } finally {
        await failing.close();
      }
    });
  }
});

describe('proxy credentials are secrets in every form', () => {
  const TOKEN = 'tok_ABC123SECRET';

  it('a user name alone (a token proxy) is masked in errors, pushctl config, the journal and the report', async () => {
    const failing = await startFailingProxy('close-before-answer');
    const tokenUrl = failing.url.replace('//', `//${TOKEN}@`);
    try {
      const journal = join(dir, 'token-run.jsonl');
      const report = join(dir, 'token-report.json');
      const r = await cli([...sendIds(tlsUrl, ['--max-attempts', '1', '--journal', journal, '--report', report])], { HTTPS_PROXY: tokenUrl, NODE_EXTRA_CA_CERTS: certs.ca });
      expect(JSON.parse(r.stdout).exit_code, r.stderr).toBe(5);
      expect(r.stdout).toContain(failing.url.replace('//', '//***@'));
      const human = await cli(send(tlsUrl).concat('--max-attempts', '1'), { HTTPS_PROXY: tokenUrl });
      const config = await cli(['config', '--base-url', 'https://push.example.com'], { HTTPS_PROXY: tokenUrl });
      expect(config.stdout).toMatch(/^proxy +http:\/\/\*\*\*@127\.0\.0\.1:\d+ \(env HTTPS_PROXY\)$/m);
      for (const text of [r.stdout, r.stderr, human.stdout, human.stderr, config.stdout, config.stderr, readFileSync(journal, 'utf8'), readFileSync(report, 'utf8')]) {
        expect(text).not.toContain(TOKEN);
      }
    } finally {
      await failing.close();
    }
  });

  it('a token in --proxy is also a secret, and a credential on the command line gets a warning naming the safer places', async () => {
    const tokenUrl = `http://${TOKEN}@127.0.0.1:${await freePort()}`;
    const r = await cli([...send(emulator.url), '--proxy', tokenUrl, '--max-attempts', '1']);
    expect(r.code).toBe(5);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(r.stderr).toMatch(/^warning: the proxy credential in --proxy is visible to other users in the process list \(ps\) and stays in your shell history: set HTTPS_PROXY .* or the `proxy` key of the config file, instead$/m);
    // The resend command runs as printed: no *** in it, and no --proxy (the environment or config carries it).
    const json = await cli(sendIds(emulator.url, ['--proxy', tokenUrl, '--max-attempts', '1']));
    const resend = (JSON.parse(json.stdout) as { resend_command: string }).resend_command;
    expect(resend).toMatch(/^pushctl (send|resend) /);
    expect(resend).not.toMatch(/\*\*\*|--proxy/);
    const fromEnv = await cli([...send(emulator.url), '--max-attempts', '1'], { HTTP_PROXY: tokenUrl });
    expect(fromEnv.stderr).not.toMatch(/process list/);
  });
});
