// An answer that refuses with a service code yet carries a message_id — a partial success, as a service
// answers when some client IDs of a request are illegal and the others got the message — says the service made
// a message. `rejected` would tell the report's reader that no one of the batch has it, and a fresh send would
// reach the others twice: the batch is in doubt (docs/behaviour.md#retries), its code and meaning in the reason.
// The built binary against a scripted server on port 0.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let dir: string;
let server: ScriptedServer;
const partial = { status: 200, body: { status: 21008, message: 'some client IDs are illegal', result: { message_id: 'm-partial', illegal_client_ids: ['b'] } } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-refusal-id-'));
  server = await startScriptedServer([ok('m-1'), partial, { status: 200, body: { status: 21005, message: 'message illegal' } }]);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a refusal that carries a message_id', () => {
  it('is in doubt, never rejected: the report, the summary and runs show say so', async () => {
    const env = cleanEnv({ PUSHCTL_APP_SECRET: 's3cret-partial', PUSHCTL_JOURNAL_DIR: join(dir, 'runs') });
    const report = join(dir, 'report.json');
    const r = await runCli(['send', '--base-url', server.url, '--app-id', 'app', '--title', 'Partial', '--client-id', 'a,b,c', '--batch-size', '1', '--concurrency', '1', '--report', report, '--json'], { env });
    expect(r.code, r.stderr).toBe(7);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { in_doubt: { batch: number; reason: string; client_ids: string[] }[]; rejected: { batch: number; code: number }[] };
    expect(written.in_doubt).toEqual([{ batch: 1, reason: expect.stringMatching(/^21008 unknown status \(service: "some client IDs are illegal"\) with message_id m-partial/), client_ids: ['b'] }]);
    // A refusal without a message_id is still the service's plain no.
    expect(written.rejected).toMatchObject([{ batch: 2, code: 21005 }]);
    const shown = JSON.parse((await runCli(['runs', 'show', JSON.parse(r.stdout).run_id as string, '--json'], { env })).stdout) as { run: { summary: { batches: Record<string, number> } } };
    expect(shown.run.summary.batches).toMatchObject({ accepted: 1, in_doubt: 1, rejected: 1 });
  });
});
