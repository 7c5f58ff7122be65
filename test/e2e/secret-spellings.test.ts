// A secret is masked however pushctl's own writers spell it (docs/behaviour.md#secrets): JSON escapes a quote
// or a backslash in it (journals, --json, reports, a --verbose dump of an answer), and a URL percent-encodes
// it. A secret holding either was masked only as typed, so a service that echoed it back put it on the screen
// and on disk in its JSON spelling. The built binary against a server of the test's own on loopback.
import { createServer, type Server } from 'node:http';
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
