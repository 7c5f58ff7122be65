// A `--once` run killed while it wrote its plan (a CI job cancelled in its first seconds: --once plans every
// recipient before the first request) sent nothing: its journal holds no attempt, and the journal is written
// before the wire (docs/behaviour.md#journal). The re-run of the same command has the original input in hand,
// which is what the refusal of such a run as a resend source asks for: it sends afresh under the key, never
// "exit 2" for every re-run of the job (docs/behaviour.md#once). The built binary against a scripted server.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const IDS = Array.from({ length: 30 }, (_, i) => `plan-${String(i).padStart(2, '0')}`);
let dir: string;
let server: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-once-plan-'));
  writeFileSync(join(dir, 'ids.txt'), `${IDS.join('\n')}\n`);
  server = await startScriptedServer(() => ok('m-plan'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;
/** The client IDs of the requests from `from` on, each once per request. */
const sentIds = (from: number) => server.requests.slice(from).flatMap((r) => (JSON.parse(r.body) as { condition: { client_ids: string[] } }).condition.client_ids);

describe('--once after a run killed while its plan was written', () => {
  it('sends every recipient afresh, once, and a further re-run finds the key done', async () => {
    const journals = join(dir, 'runs');
    const env = cleanEnv({ PUSHCTL_APP_SECRET: 's3cret-plan-cut', PUSHCTL_JOURNAL_DIR: journals });
    const send = ['send', '--base-url', server.url, '--app-id', 'app', '--title', 'Plan cut', '--client-ids-file', join(dir, 'ids.txt'), '--batch-size', '10', '--once', 'plan-cut', '--json'];
    const first = await runCli(send, { env });
    expect(first.code, first.stderr).toBe(0);
    // What a kill while the plan was written leaves: the header and the first batch record, no attempt.
    const path = join(journals, readdirSync(journals).find((f) => f.endsWith('.jsonl'))!);
    const lines = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${lines.slice(0, 2).join('\n')}\n`);
    const shown = json(await runCli(['runs', 'show', path, '--json'], { env })).run as { state: string };
    expect(shown.state).toBe('incomplete');

    const before = server.requests.length;
    const again = await runCli(send.slice(0, -1), { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`--once plan-cut: run ${json(first).run_id as string} was cut short while it wrote its plan, before anything was sent: sending afresh`);
    expect(sentIds(before).sort()).toEqual(IDS);

    const after = server.requests.length;
    const done = await runCli(send, { env });
    expect(done.code, done.stderr).toBe(0);
    expect(json(done)).toMatchObject({ skipped: true, summary: { recipients: { total: IDS.length, accepted: IDS.length } } });
    expect(json(done).run_id).not.toBe(json(first).run_id);
    expect(server.requests).toHaveLength(after);
  });
});
