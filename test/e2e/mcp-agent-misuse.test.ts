// `pushctl mcp` used and misused as a coding agent's client would: the built server over stdio, driven by the
// SDK's own Client, against `pushctl serve` (a real process) on 127.0.0.1. A client need not list the tools
// before calling one (it may have cached them), and may call a tool by a name it made up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'agent-canary-S3CR3T-5d2e';
const PROFILE_SECRET = 'eu-canary-S3CR3T-90af';
const APP = 'app-agent';
const EU_APP = 'app-agent-eu';

let service: ServedCli;
/** Slow answers, so a send of many batches is still going when the client cancels it. */
let slow: ServedCli;
let home: string;
const open: Client[] = [];

beforeAll(async () => {
  service = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--app', `${EU_APP}:${PROFILE_SECRET}`]);
  slow = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--chaos', 'latency=500-500ms']);
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-agent-'));
  writeFileSync(join(home, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(home, 'pushctl.json'), JSON.stringify({ baseUrl: service.url, appId: APP, profiles: { eu: { appId: EU_APP } } }));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await service.stop();
  await slow.stop();
  rmSync(home, { recursive: true, force: true });
});

/** Starts the built `pushctl mcp` with these flags (no secret in its environment unless given) and connects to it. */
async function connect(flags: string[], extra: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs'), ...extra });
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: defined, cwd: home, stderr: 'pipe' });
  let stderr = '';
  (transport.stderr as Readable).setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const client = new Client({ name: 'pushctl-agent-e2e', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('pushctl mcp: the secret, whatever the client calls first', () => {
  it('a secret from --app-secret-file is masked in the first call, before any tools/list', async () => {
    const { client, stderr } = await connect(['--base-url', service.url, '--app-id', APP, '--app-secret-file', join(home, 'secret.txt')]);
    const result = await callTool(client, 'validate_message', { all: true, title: `leaked ${SECRET}` });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).toContain('leaked ***');
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(stderr()).not.toContain(SECRET);
  });

  it("a profile's own secret (PUSHCTL_APP_SECRET_EU) is masked in a call that names the profile", async () => {
    const { client } = await connect(['-c', join(home, 'pushctl.json')], { PUSHCTL_APP_SECRET: SECRET, PUSHCTL_APP_SECRET_EU: PROFILE_SECRET });
    const result = await callTool(client, 'validate_message', { profile: 'eu', all: true, title: `leaked ${PROFILE_SECRET}` });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result)).toContain('leaked ***');
    expect(JSON.stringify(result)).not.toContain(PROFILE_SECRET);
  });

  it('a tool name with the secret in it is refused without repeating the secret', async () => {
    const { client } = await connect(['--base-url', service.url, '--app-id', APP, '--app-secret-file', join(home, 'secret.txt')]);
    const refusal = await client.callTool({ name: `send_${SECRET}`, arguments: {} }).then(
      () => 'answered',
      (error: unknown) => String(error),
    );
    expect(refusal).toContain('unknown tool "send_***"');
    expect(refusal).not.toContain(SECRET);
  });
});

interface RunLine {
  run_id: string;
  state: string;
  summary: { recipients: { total: number; accepted: number; not_sent: number } };
}

/** list_runs' line for one run id (or the only one), asked until `until` holds for it. */
async function runLine(client: Client, until: (run: RunLine) => boolean): Promise<RunLine> {
  for (;;) {
    const listed = await callTool(client, 'list_runs', {});
    const [run] = (listed.structuredContent as { runs: RunLine[] }).runs;
    if (run && until(run)) return run;
  }
}

describe('pushctl mcp: a send the client cancels', () => {
  it('stops as Ctrl-C stops the CLI: no new request after the cancel, the run journaled as interrupted with what it left, and a resend that goes where it went', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'pushctl-mcp-cancel-'));
    const { client, stderr } = await connect(['--base-url', slow.url, '--app-id', APP, '--allow-send'], { PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: runs });
    const clientIds = Array.from({ length: 60_000 }, (_, i) => `device-${i}`);
    const cancel = new AbortController();
    const sending = client.callTool({ name: 'send_message', arguments: { clientId: clientIds, title: 'cancel me' } }, undefined, { signal: cancel.signal });
    await runLine(client, (run) => run.state === 'running' && run.summary.recipients.accepted > 0);
    cancel.abort('the user changed their mind');
    await expect(sending).rejects.toThrow(/changed their mind/);
    // The server says when the call ended (its result goes nowhere: the client cancelled it).
    while (!/send_message: exit \d+/.test(stderr())) await new Promise((resolve) => setTimeout(resolve, 50));
    // Some batches were accepted before the cancel: partly sent, as the CLI's exit says after Ctrl-C.
    expect(stderr()).toContain('send_message: exit 7');
    const run = await runLine(client, () => true);
    expect(run.state).toBe('interrupted');
    expect(run.summary.recipients.accepted).toBeLessThan(clientIds.length);
    expect(run.summary.recipients.not_sent).toBeGreaterThan(0);
    // What the journal says was accepted is what the emulator took, no more.
    const inbox = (await (await fetch(`${slow.url}/v1/emulator/messages?limit=1000`)).json()) as { messages: { body: { condition: { client_ids: string[] } } }[] };
    expect(inbox.messages.reduce((n, m) => n + m.body.condition.client_ids.length, 0)).toBe(run.summary.recipients.accepted);
    // The command it gives finishes the run where it went: the server's --base-url and --app-id are in it.
    const shown = await callTool(client, 'show_run', { run: run.run_id });
    const command = (shown.structuredContent as { run: { resend_command: string } }).run.resend_command;
    expect(command).toBe(`pushctl resend ${run.run_id} --app-id ${APP} --base-url ${slow.url}`);
    // A resend with other settings is refused (exit 2); this one is previewed as what it would send.
    const preview = await runCli([...command.split(' ').slice(1), '--dry-run', '--json'], { cwd: home, env: cleanEnv({ HOME: home, PUSHCTL_JOURNAL_DIR: runs, PUSHCTL_APP_SECRET: SECRET }) });
    expect(preview.code, preview.stderr).toBe(0);
    rmSync(runs, { recursive: true, force: true });
  });
});

describe('pushctl mcp: empty values an agent fills in', () => {
  it('an empty `to` is refused as naming no audience, by the tool as by the CLI, whatever else chooses recipients', async () => {
    const { client } = await connect(['--base-url', service.url, '--app-id', APP], { PUSHCTL_APP_SECRET: SECRET });
    for (const args of [{ to: '', title: 'x' }, { to: '', all: true, title: 'x' }, { to: ' ', clientId: ['a'], title: 'x' }]) {
      const result = await callTool(client, 'validate_message', args);
      expect(result.isError).toBe(true);
      // Said of the argument: a call cannot pass the flag (docs/behaviour.md#mcp).
      expect(result.structuredContent).toMatchObject({ exit_code: 2, error: { message: '`to` needs an audience name' } });
    }
    const cli = await runCli(['validate', '--to', '', '--all', '--title', 'x'], { cwd: home });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('error: --to needs an audience name');
  });

  it('an empty list is a criterion not given, as no flag: beside other recipients it is no conflict', async () => {
    const { client } = await connect(['--base-url', service.url, '--app-id', APP], { PUSHCTL_APP_SECRET: SECRET });
    const result = await callTool(client, 'validate_message', { clientId: ['phone-1'], country: [], language: [], brand: [], model: [], osVersion: [], appVersion: [], title: 'x' });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ok: true, body: { condition: { type: 2, client_ids: ['phone-1'] } } });
    // With nothing else chosen, an empty list chooses no one: the call says recipients are missing, as the CLI with no flag.
    const none = await callTool(client, 'validate_message', { clientId: [], title: 'x' });
    expect(none.structuredContent).toMatchObject({ ok: false, errors: [expect.objectContaining({ path: 'condition' })] });
  });
});
