// A send to `pushctl serve --tls-cert --tls-key` answering after 600 ms: connections (each one TLS handshake) are
// counted on the way in, by a TCP relay in front of the emulator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates } from '../helpers/certificates.js';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';

const APP = 'tls-app';
const SECRET = 'tls-S3CR3T-77aa';

let dir: string;
let serve: ChildProcess;
let relay: net.Server;
let relayUrl: string;
let ca: string;
const counts = { connections: 0, open: 0, mostOpen: 0 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-keep-alive-'));
  const certs = makeCertificates(dir);
  ca = certs.ca;
  serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--rate', '30', '--chaos', 'latency=600ms', '--app', `${APP}:${SECRET}`, '--tls-cert', certs.cert, '--tls-key', certs.key], {
    env: cleanEnv() as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const serveUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    serve.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const target = Number(new URL(serveUrl).port);
  // Bytes pass through untouched (TLS is end to end); each accepted connection is one handshake.
  relay = net.createServer((inbound) => {
    counts.connections += 1;
    counts.open += 1;
    counts.mostOpen = Math.max(counts.mostOpen, counts.open);
    const outbound = net.connect(target, '127.0.0.1');
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.once('close', () => {
      counts.open -= 1;
      close();
    });
    inbound.on('error', close);
    outbound.on('error', close);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `https://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => relay?.close(resolve));
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    process.kill(serve.pid!, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('a send at 600 ms latency over https', () => {
  it('keeps more than 8 requests in flight on kept-alive connections: far fewer handshakes than requests', async () => {
    const file = join(dir, 'ids.txt');
    writeFileSync(file, Array.from({ length: 1500 }, (_, i) => `tls-${i}`).join('\n'));
    const r = await runCli(['send', '--base-url', relayUrl, '--app-id', APP, '--client-ids-file', file, '--batch-size', '10', '--rate', '30', '--title', 'Hi', '--json', '--no-journal'], {
      env: cleanEnv({ PUSHCTL_APP_SECRET: SECRET, NODE_EXTRA_CA_CERTS: ca }),
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { batches: { status: string; attempts: number }[] };
    const requests = doc.batches.reduce((n, b) => n + b.attempts, 0);
    expect(doc.batches).toHaveLength(150);
    expect(doc.batches.every((b) => b.status === 'accepted')).toBe(true);
    // Eight connections carry at most 8 / 0.6 s = 13 requests a second; the rate is 30.
    expect(counts.mostOpen).toBeGreaterThan(8);
    // Each connection is reused: a handshake per request would be 150 or more.
    expect(counts.connections).toBeLessThanOrEqual(counts.mostOpen + 2);
    expect(counts.connections).toBeLessThan(requests / 2);
  });
});

describe('a certificate signed by a CA Node.js does not trust (the emulator with --tls-cert)', () => {
  // Without the test's CA (a bundle the machine sets holds other CAs): the handshake fails, and the way out is named.
  const untrusted = () => cleanEnv({ PUSHCTL_APP_SECRET: SECRET });

  it('send and check say to give the CA with NODE_EXTRA_CA_CERTS, and doing so works', async () => {
    const sent = await runCli(['send', '--base-url', relayUrl, '--app-id', APP, '--all', '--title', 'Hi', '--no-journal'], { env: untrusted(), cwd: dir });
    expect(sent.code, sent.stderr).toBe(5);
    expect(sent.stderr).toMatch(/^✗ not sent: TLS failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*not signed by a CA that Node\.js trusts/m);
    expect(sent.stderr).toMatch(/^hint: if it is your own .*NODE_EXTRA_CA_CERTS=<ca\.pem>$/m);
    const checked = await runCli(['check', '--base-url', relayUrl, '--app-id', APP, '--json'], { env: untrusted(), cwd: dir });
    expect(checked.code, checked.stderr).toBe(5);
    const error = (JSON.parse(checked.stdout) as { error: { hint: string } }).error;
    expect(error.hint).toMatch(/NODE_EXTRA_CA_CERTS=<ca\.pem>, then run pushctl check again$/);
    const trusted = await runCli(['check', '--base-url', relayUrl, '--app-id', APP], { env: cleanEnv({ PUSHCTL_APP_SECRET: SECRET, NODE_EXTRA_CA_CERTS: ca }), cwd: dir });
    expect(trusted.code, trusted.stderr).toBe(0);
  });
});
