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

let home: string;
const open: Client[] = [];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-arguments-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs') });
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const client = new Client({ name: 'pushctl-arguments-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--base-url', 'http://127.0.0.1:8787', '--app-id', 'demo-app'], env: defined, cwd: home, stderr: 'ignore' }));
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
