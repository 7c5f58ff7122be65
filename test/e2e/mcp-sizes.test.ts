// `pushctl mcp` given and asked for more than a stdio line comfortably holds: the built server over stdio, driven
// by the SDK's own Client (whose reader gives up on a line over 10 MiB), against `pushctl serve` on 127.0.0.1.
// A request too large is refused and the server serves on; an answer never grows past what a client reads.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'sizes-canary-S3CR3T-7e41';
const APP = 'app-sizes';

/** Slow answers, so a send is still going when the next request arrives. */
let slow: ServedCli;
let home: string;
const open: Client[] = [];

beforeAll(async () => {
  slow = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--chaos', 'latency=300-300ms']);
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-sizes-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await slow.stop();
  rmSync(home, { recursive: true, force: true });
});

async function connect(): Promise<{ client: Client; stderr: () => string }> {
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs'), PUSHCTL_APP_SECRET: SECRET });
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--base-url', slow.url, '--app-id', APP, '--allow-send'], env: defined, cwd: home, stderr: 'pipe' });
  let stderr = '';
  (transport.stderr as Readable).setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const client = new Client({ name: 'pushctl-sizes-e2e', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const ids = (count: number) => Array.from({ length: count }, (_, i) => `device-${String(i).padStart(7, '0')}`);

describe('pushctl mcp: a request larger than the server reads', () => {
  it('is refused as a tool error naming the size and the way to send that many; a send in flight still answers, and the server serves on', async () => {
    const { client, stderr } = await connect();
    const sending = callTool(client, 'send_message', { clientId: ids(20_000), title: 'in flight' });
    // 17 MiB of arguments: over what the server reads in one message.
    const huge = await callTool(client, 'validate_message', { all: true, title: 'x'.repeat(17 * 1024 * 1024) });
    expect(huge.isError).toBe(true);
    expect(huge.structuredContent).toMatchObject({ ok: false, exit_code: 2 });
    expect(textOf(huge)).toMatch(/^error: validate_message: the request is 17\.0 MiB, over the 16 MiB pushctl mcp reads in one message/);
    const sent = await sending;
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ ok: true, state: 'sent', summary: { recipients: { total: 20_000, accepted: 20_000 } } });
    const listed = await callTool(client, 'list_runs', {});
    expect(listed.structuredContent).toMatchObject({ ok: true, runs: [expect.objectContaining({ state: 'sent', title: 'in flight' })] });
    expect(stderr()).not.toContain(SECRET);
  });
});

describe('pushctl mcp: an answer larger than a client reads', () => {
  it('validate_message of 600,000 client IDs answers within the bound: the count whole, the list cut and said to be cut', async () => {
    const { client } = await connect();
    const given = Array.from({ length: 600_000 }, (_, i) => `d${i}`);
    // The whole answer was 20 MB: the SDK's client gave up on the line and closed the connection.
    const result = await callTool(client, 'validate_message', { clientId: given, title: 'many' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const answer = result.structuredContent as { valid: boolean; body: { condition: { type: number; client_ids: string[] } }; elided: unknown };
    expect(answer.valid).toBe(true);
    expect(answer.body.condition.type).toBe(2);
    expect(answer.body.condition.client_ids).toEqual(given.slice(0, 100));
    expect(answer.elided).toEqual([{ path: 'body.condition.client_ids', shown: 100, total: 600_000 }]);
    // Hosts cap a tool's output near 100 kB (docs/behaviour.md#mcp): the whole result, text and structure, is under it.
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(100_000);
    expect(textOf(result)).toContain('cut: this answer is bounded');
    // The connection is still there.
    expect((await callTool(client, 'list_runs', {})).isError).toBeFalsy();
  });
});

describe('pushctl mcp: a send longer than the client waits', () => {
  it('reports its progress batch by batch to a client that asks (a progressToken), which then keeps waiting instead of cancelling it', async () => {
    const { client } = await connect();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    // 30 batches at the default pace and the emulator's latency: a send of seconds. Without progress the
    // client gives up after its timeout and cancels the call, which stops the send half-way.
    const result = (await client.callTool({ name: 'send_message', arguments: { clientId: ids(30_000), title: 'long send' } }, undefined, {
      onprogress: (progress) => seen.push(progress),
      resetTimeoutOnProgress: true,
      timeout: 5_000,
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ ok: true, state: 'sent', summary: { batches: { total: 30, accepted: 30 } } });
    expect(seen.map((p) => p.progress)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(seen.at(-1)).toMatchObject({ progress: 30, total: 30, message: expect.stringMatching(/^batches 30\/30 · recipients 30000\/30000/) });
  });
});

describe('pushctl mcp: a client that stops reading mid-send', () => {
  it('does not crash the server: the send goes on to its end, journaled whole, and the server ends when the client is gone', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'pushctl-mcp-gone-'));
    const env = cleanEnv({ HOME: home, PUSHCTL_JOURNAL_DIR: runs, PUSHCTL_APP_SECRET: SECRET });
    const child = spawn(process.execPath, [BIN, 'mcp', '--base-url', slow.url, '--app-id', APP, '--allow-send'], { env: env as NodeJS.ProcessEnv, cwd: home, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const write = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    write({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // With a progressToken the server writes while it sends (each batch answers after 300 ms): the first
    // write after this finds no reader.
    write({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'send_message', arguments: { clientId: ids(10_000), title: 'gone' }, _meta: { progressToken: 1 } } });
    child.stdout.destroy();
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toMatch(/EPIPE.*\n\s+at /);
    const listed = await runCli(['runs', '--json'], { cwd: home, env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ runs: [{ state: 'sent', title: 'gone', summary: { recipients: { total: 10_000, accepted: 10_000 } } }] });
    rmSync(runs, { recursive: true, force: true });
  });
});
