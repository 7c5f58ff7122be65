// Nothing listens on a loopback URL: the built CLI says so once, at once, naming the URL and `pushctl serve`
// (it used to retry for seconds and print the same reason twice).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { freePort } from '../helpers/tinyproxy.js';

describe('a loopback URL where nothing listens', () => {
  it('fails after one attempt with one message naming the URL and pushctl serve', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    // The recipient left is written to an automatic report in the working directory: a temporary one.
    const cwd = mkdtempSync(join(tmpdir(), 'pushctl-refused-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    const r = await runCli(['send', '--base-url', url, '--app-id', 'demo-app', '--client-id', 'dev-1', '--title', 'x', '--no-journal'], { env: cleanEnv({ PUSHCTL_APP_SECRET: 'loop-S3CRET' }), cwd });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).not.toMatch(/retrying/);
    expect(r.stderr.split(`could not connect to ${url} (ECONNREFUSED)`)).toHaveLength(2);
    expect(r.stderr).toMatch(/pushctl serve/);
    expect(r.stderr).toMatch(/after 1 attempt\b/);
  });
});
