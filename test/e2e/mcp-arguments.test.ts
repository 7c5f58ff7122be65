// The objects a tool call gives (message, data, vars) reach the message as given, as a file's JSON does: the
// built `pushctl mcp` over stdio, driven by the SDK's own Client; validate_message needs no service.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'arguments-canary-S3CR3T-c0de';
let home: string;
let service: ServedCli;
const open: Client[] = [];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-arguments-'));
  service = await serveCli(['--rate', '0', '--app', `demo-app:${SECRET}`]);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await service.stop();
  rmSync(home, { recursive: true, force: true });
});

const serverEnv = () => cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs'), PUSHCTL_APP_SECRET: SECRET });

async function connect(): Promise<Client> {
  const env = serverEnv();
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const client = new Client({ name: 'pushctl-arguments-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--base-url', service.url, '--app-id', 'demo-app', '--allow-send'], env: defined, cwd: home, stderr: 'ignore' }));
  open.push(client);
  return client;
}

/** A call whose arguments are written as JSON text, as a client sends them: `__proto__` is then an own key. */
const callJson = (client: Client, name: string, json: string) => client.callTool({ name, arguments: JSON.parse(json) as Record<string, unknown> }) as Promise<CallToolResult>;

describe('pushctl mcp: the objects of a call, kept as given', () => {
  it('data keeps every key: one holding "=" and "__proto__" are ordinary keys, as in a data file', async () => {
    const client = await connect();
    const result = await callJson(client, 'validate_message', '{"all": true, "title": "x", "data": {"utm=source": "a=b", "__proto__": "p", "n": 5}}');
    expect(result.structuredContent).toMatchObject({ ok: true });
    expect((result.structuredContent as { body: { data: unknown } }).body.data).toStrictEqual(JSON.parse('{"utm=source": "a=b", "__proto__": "p", "n": "5"}'));
    // The CLI's data file says the same.
    writeFileSync(join(home, 'data.json'), '{"utm=source": "a=b", "__proto__": "p", "n": 5}');
    const cli = await runCli(['validate', '--all', '--title', 'x', '--data-file', 'data.json', '--json'], { cwd: home });
    expect((JSON.parse(cli.stdout) as { body: { data: unknown } }).body.data).toStrictEqual(JSON.parse('{"utm=source": "a=b", "__proto__": "p", "n": "5"}'));
  });

  it('a var whose name holds "=" fills no placeholder of another name', async () => {
    const client = await connect();
    const message = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi {{a}}' } };
    const result = await client.callTool({ name: 'validate_message', arguments: { message, vars: { 'a=b': 'c' } } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ exit_code: 3, error: { message: 'unfilled placeholder {{a}} at notification.title' } });
  });

  it('a message with a "__proto__" field is refused as an unknown field, as the same file is', async () => {
    const client = await connect();
    const result = await callJson(client, 'validate_message', '{"message": {"type": 1, "time_to_live": 5, "condition": {"type": 0}, "notification": {"title": "x"}, "__proto__": {"a": 1}}}');
    expect(result.structuredContent).toMatchObject({ ok: false, exit_code: 3, errors: [expect.objectContaining({ path: '__proto__', rule: 'unknown-field' })] });
  });
});

describe('pushctl mcp: a message that says it is a dry run', () => {
  it('send_message of the body list_inbox showed for a dry run is refused: it would deliver nothing and read as sent', async () => {
    const client = await connect();
    const key = 'dry-body-key';
    const checked = await client.callTool({ name: 'dry_run', arguments: { all: true, title: 'Release 2.0' } });
    expect(checked.isError).toBeFalsy();
    const inbox = (await client.callTool({ name: 'list_inbox', arguments: {} })).structuredContent as { messages: { body: Record<string, unknown> }[] };
    const body = inbox.messages.at(-1)!.body;
    expect(body.dry_run).toBe(true);
    const sent = (await client.callTool({ name: 'send_message', arguments: { message: body, once: key } })) as CallToolResult;
    expect(sent.isError).toBe(true);
    expect(sent.structuredContent).toMatchObject({ ok: false, exit_code: 2, error: { message: expect.stringContaining('"dry_run": true') } });
    // Nothing was taken for a send: no run, and the once key is still free for the real one.
    const runs = (await client.callTool({ name: 'list_runs', arguments: {} })).structuredContent as { runs: { dry_run: boolean }[] };
    expect(runs.runs.map((run) => run.dry_run)).toEqual([true]);
    const { dry_run: _dry, ...real } = body;
    const delivered = (await client.callTool({ name: 'send_message', arguments: { message: real, once: key } })) as CallToolResult;
    expect(delivered.structuredContent).toMatchObject({ ok: true, skipped: false, dry_run: false, state: 'sent' });
    // The CLI refuses the same file the same way.
    writeFileSync(join(home, 'dry.json'), JSON.stringify(body));
    const cli = await runCli(['send', '-f', 'dry.json', '--base-url', service.url, '--app-id', 'demo-app', '--json'], { cwd: home, env: serverEnv() });
    expect(cli.code).toBe(2);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: false, exit_code: 2, error: { message: (sent.structuredContent as { error: { message: string } }).error.message } });
  });
});

describe('pushctl mcp: arguments take what the flags and the message take', () => {
  it('type 1 or 2 (as --type 1 and the message\'s own "type": 1), and os versions as numbers (as "os_version": [33])', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'validate_message', arguments: { type: 2, osVersion: [33, '34'], data: { k: 'v' } } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ok: true, body: { type: 2, condition: { type: 1, targeting: { os_version: ['33', '34'] } } } });
    const cli = await runCli(['validate', '--type', '2', '--os-version', '33', '--os-version', '34', '-d', 'k=v', '--json'], { cwd: home });
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, body: (result.structuredContent as { body: unknown }).body });
  });
});

describe('pushctl mcp: variants no recipient gets', () => {
  it('validate_message says no variant is sent, as validate does, instead of an empty list of them', async () => {
    const client = await connect();
    const message = { type: 1, time_to_live: 60, notification: { title: 'Hi' }, variants: { fr: { notification: { title: 'Salut' } } } };
    const result = (await client.callTool({ name: 'validate_message', arguments: { message, clientId: ['a', 'b'] } })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(text).not.toContain('variants:  and');
    expect(text).toContain('variants: none is sent: every recipient gets the base message\n');
    writeFileSync(join(home, 'variants.json'), JSON.stringify(message));
    const cli = await runCli(['validate', '-f', 'variants.json', '--client-id', 'a,b'], { cwd: home });
    expect(cli.stderr).toContain('variants: none is sent: every recipient gets the base message\n');
  });
});

describe('pushctl mcp: a message object too deep or too large', () => {
  it('is refused (exit 3, as the same file is) naming the argument and the JSON path, not a file, stdin or -f', async () => {
    const client = await connect();
    let deep: unknown = 'x';
    for (let i = 0; i < 70; i++) deep = [deep];
    const base = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'x' } };
    const tooDeep = (await client.callTool({ name: 'validate_message', arguments: { message: { ...base, data: { k: deep } } } })) as CallToolResult;
    expect(tooDeep.isError).toBe(true);
    expect(tooDeep.structuredContent).toMatchObject({ ok: false, exit_code: 3, error: { message: `message nests deeper than 64 levels at data.k${'[0]'.repeat(62)}` } });
    const tooLarge = (await client.callTool({ name: 'dry_run', arguments: { message: { ...base, notification: { title: 'x'.repeat(5 * 1024 * 1024) } } } })) as CallToolResult;
    expect(tooLarge.structuredContent).toMatchObject({ ok: false, exit_code: 3, error: { message: 'message is 5.0 MiB of JSON, over the 4 MiB pushctl reads for a message' } });
    for (const result of [tooDeep, tooLarge]) expect(JSON.stringify(result.content)).not.toMatch(/stdin|-f\b|line 1/);
  });
});
