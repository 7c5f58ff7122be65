// A secret is masked however pushctl's own writers spell it (docs/behaviour.md#secrets): JSON escapes a quote
// or a backslash in it (journals, --json, reports, a --verbose dump of an answer), and a URL percent-encodes
// it. A secret holding either was masked only as typed, so a service that echoed it back put it on the screen
// and on disk in its JSON spelling. The built binary against a server of the test's own on loopback.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const SECRET = 'pa"ss\\word/with space-XYZ';
let server: Server;
let url = '';
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-spellings-'));
  // Echoes the Authorization header in each spelling, as a gateway's debug answer might.
  server = createServer((req, res) => {
    const secret = req.headers.authorization ?? '';
    req.resume();
    req.on('end', () => res.setHeader('content-type', 'application/json').end(JSON.stringify({ status: 503, msg: `echo ${secret} url ${encodeURIComponent(secret)}` })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

describe('a secret holding a quote, a backslash, a slash and a space', () => {
  it('never shows in any spelling: --verbose, --json, the journal, the report', async () => {
    const journals = join(work, 'journals');
    const r = await runCli(['send', '--title', 'Echo', '--client-id', 'a', '--base-url', url, '--app-id', 'app', '--max-attempts', '1', '--verbose', '--json', '--report', 'report.json'], {
      env: cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals }),
      cwd: work,
    });
    expect(r.code, r.stderr).not.toBe(0);
    // The verbose dump shows the answer, so the server's echo reached pushctl.
    expect(r.stderr).toContain('echo ***');
    const written = [r.stdout, r.stderr, readFileSync(join(work, 'report.json'), 'utf8'), ...readdirSync(journals).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(join(journals, f), 'utf8'))];
    for (const text of written) {
      expect(text).not.toContain('with space-XYZ');
      expect(text).not.toContain('with%20space-XYZ');
    }
  });
});

describe('a proxy credential', () => {
  it("never shows as the Basic credential the proxy is sent (base64 of user:password), however the proxy answers", async () => {
    // A proxy that answers every request itself, echoing the Proxy-Authorization it was given.
    const proxy = createTcpServer((socket) => {
      let head = '';
      socket.on('data', (chunk) => {
        head += chunk.toString();
        if (!head.includes('\r\n\r\n')) return;
        const seen = /proxy-authorization: ([^\r\n]*)/i.exec(head)?.[1] ?? 'none';
        const body = JSON.stringify({ status: 503, msg: `proxy saw ${seen}` });
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const r = await runCli(['send', '--title', 'Echo', '--client-id', 'a', '--base-url', 'http://127.0.0.1:9', '--app-id', 'app', '--max-attempts', '1', '--verbose', '--json'], {
        env: cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: 'app-secret-9f2e', PUSHCTL_JOURNAL_DIR: join(work, 'proxy-journals'), HTTP_PROXY: `http://bob:Pr0xy%20Pass@127.0.0.1:${port}`, NO_PROXY: '' }),
        cwd: work,
      });
      // The verbose dump shows the proxy's answer: the echo reached pushctl.
      expect(r.stderr).toContain('proxy saw Basic ***');
      expect(r.stdout + r.stderr).not.toContain(Buffer.from('bob:Pr0xy Pass').toString('base64'));
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

