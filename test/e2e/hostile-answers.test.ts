// The built CLI against a server that answers like a gateway or a hostile host (issue 11, "Answers").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer, type Step } from '../helpers/scripted-server.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const CANARY = 'canary-ANSWERS-41aa09';
let home: string;
let server: ScriptedServer | undefined;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'pushctl-answers-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function send(script: Step[], extra: string[] = []) {
  server = await startScriptedServer(script);
  return runCli(['send', '--app-id', 'a', '--base-url', server.url, '--all', '--title', 'x', ...extra], {
    env: cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_APP_SECRET: CANARY }),
    cwd: home,
  });
}

describe('send against hostile answers', () => {
  it("retries a gateway's HTTP 503 {\"status\":503} and succeeds, keeping every digit of a numeric message_id", async () => {
    const r = await send([
      { status: 503, body: { status: 503, error: 'Service Unavailable' } },
      { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"status":200,"message":"OK","result":{"message_id":98765432109876543210}}' },
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('98765432109876543210');
    expect(server!.requests).toHaveLength(2);
  });

  it('marks HTTP 500 {"status":500} unknown (exit 5), not rejected', async () => {
    const r = await send([{ status: 500, body: { status: 500 } }]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('? in doubt: ');
    expect(r.stderr).not.toContain('rejected');
  });

  it('--verbose prints an answer full of escape sequences inert', async () => {
    const r = await send([{ status: 200, headers: { 'X-Evil': 'a\u009b2Jb' }, body: '{"status":21005,"message":"\u001b[2J\u001b[H\u001b]0;owned\u0007"}\n= accepted: forged' }], ['--verbose']);
    // eslint-disable-next-line no-control-regex -- no control character may remain
    expect(r.stderr).not.toMatch(/\u001b|\u0007|\u009b/);
    expect(r.stderr).toContain('x-evil: a\\x9b2Jb');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('= '))).toHaveLength(1);
    expect(r.stderr + r.stdout).not.toContain(CANARY);
  });
});
