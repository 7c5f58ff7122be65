// What `pushctl mcp` costs an agent and says to it: the built server over stdio, driven by the SDK's own Client,
// against `pushctl serve` on 127.0.0.1. The tool list is read into every session's context, so it is kept small
// and the message's whole schema is one call away; a request the SDK's schema refuses is answered in words
// naming what is wrong; and every answer names the tool's own arguments, never a flag the agent cannot pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'context-canary-S3CR3T-4b1d';
const APP = 'app-context';

let service: ServedCli;
let home: string;
const open: Client[] = [];

beforeAll(async () => {
  service = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`]);
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-context-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await service.stop();
  rmSync(home, { recursive: true, force: true });
});

async function connect(flags: string[] = [], url = service.url): Promise<Client> {
  const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs'), PUSHCTL_APP_SECRET: SECRET });
  const defined = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--base-url', url, '--app-id', APP, ...flags], env: defined, cwd: home, stderr: 'ignore' });
  const client = new Client({ name: 'pushctl-context-e2e', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return client;
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** What a tools/call whose params the client wrote by hand is answered: the result, or the protocol error's code and words. */
async function rawCall(client: Client, params: Record<string, unknown>): Promise<{ code: number; message: string } | CallToolResult> {
  try {
    return await client.request({ method: 'tools/call', params: params as { name: string } }, CallToolResultSchema);
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message };
  }
}

/** The tools/list an agent's host puts in its context, in bytes of JSON: 58,965 when each message tool embedded the message's whole schema. */
const LIST_BUDGET = 36 * 1024;

describe('pushctl mcp: the tool list an agent reads every session', () => {
  it(`is at most ${LIST_BUDGET / 1024} KiB with every tool offered, and the message's whole schema is one call away (message_schema)`, async () => {
    const client = await connect(['--allow-send']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'send_message', 'show_run', 'validate_message']);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(LIST_BUDGET);
    // What an agent needs to write a message object is still in the list: its fields, and where the rest is.
    const message = (tools.find((t) => t.name === 'dry_run')!.inputSchema.properties as Record<string, { description: string; properties: Record<string, unknown> }>).message!;
    expect(Object.keys(message.properties)).toEqual(expect.arrayContaining(['type', 'time_to_live', 'condition', 'notification', 'data', 'variants']));
    expect(message.description).toContain('message_schema');
    // The schema on demand is `pushctl schema`'s, whole.
    const schema = await callTool(client, 'message_schema', {});
    expect(schema.isError).toBeFalsy();
    const cli = await runCli(['schema']);
    expect((schema.structuredContent as { schema: unknown }).schema).toEqual(JSON.parse(cli.stdout));
  });
});

describe('pushctl mcp: a tools/call whose arguments are not an object', () => {
  it.each([
    ['an array', [1, 2]],
    ['a string', 'all'],
    ['null', null],
  ])('(%s) is an invalid-params error naming `arguments`, in words, not the SDK schema dump; the server serves on', async (kind, given) => {
    const client = await connect();
    const answer = await rawCall(client, { name: 'validate_message', arguments: given });
    expect(answer).toEqual({ code: -32602, message: `MCP error -32602: tools/call: arguments must be an object (the tool's arguments by name, e.g. {"all": true, "title": "Hi"}), got ${kind}` });
    expect((await callTool(client, 'validate_message', { all: true, title: 'x' })).isError).toBeFalsy();
  });
});

/** A CLI flag in prose (`--to`, `-f`), outside a shell command an answer gives to run as printed. */
const FLAG = /(?<![\w`-])--?[a-z][\w-]*/;
const withoutCommands = (text: string) => text.replace(/pushctl (?:resend|runs|init)[^;\n]*/g, '');

describe('pushctl mcp: answers name the tool\'s arguments, not CLI flags', () => {
  it.each([
    ['validate_message', { title: 'x' }, 'add "condition", or give `all`, `clientId` or a targeting argument such as `country`'],
    ['validate_message', { message: { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi {{name}}' } } }, 'give `vars`: {"name": "…"}'],
    ['validate_message', { title: 'x', all: true, ttl: '5x' }, '`ttl` "5x" is not a duration'],
    ['validate_message', { title: 'x', to: 'nope' }, '`to` "nope": no audiences are configured'],
    ['validate_message', { title: 'x', all: true, clientId: ['a'] }, '`all` and `clientId` choose recipients in different ways'],
    ['validate_message', { desc: 'x', all: true, style: 'button' }, 'no `type` given: sending a notification (1)'],
    ['validate_message', { all: true, message: { type: 1, time_to_live: 60, notification: { title: 'Hi' }, variants: { fr: { notification: { title: 'Salut' } } } } }, 'e.g. `language`: ["fr", "en"]'],
    ['dry_run', { title: 'x', all: true, profile: 'nope' }, 'profile "nope" (from `profile`)'],
    ['validate_message', { vars: { v: '1' }, all: true, title: 'x' }, '`vars` fills {{placeholders}} in `message`, but no `message` was given'],
    // A command that is one of the tools is named as the tool.
    ['show_run', { run: 'yesterday' }, 'list the runs with list_runs'],
    ['list_runs', {}, 'see show_run'],
  ])('%s %j', async (tool, args, words) => {
    const client = await connect();
    if (tool === 'list_runs') await callTool(client, 'dry_run', { all: true, title: 'a run to list' });
    const result = await callTool(client, tool, args);
    // The message as it would be sent is the agent's own words, not pushctl's.
    const { body: _body, variants: _variants, ...prose } = result.structuredContent as Record<string, unknown>;
    const said = [textOf(result).split('\n{')[0]!, JSON.stringify(prose)].join('\n');
    expect(said).toContain(words);
    // A flag of the server's own command line is the person's to change, and said to be the server's.
    for (const line of said.split('\n')) expect(withoutCommands(line).replace(/the server's --[\w-]+/g, '')).not.toMatch(FLAG);
  });
});

describe('pushctl mcp: a send left in doubt, in the tools\' terms', () => {
  it('names no flag a call cannot pass, and keeps the commands it gives whole, run ids and all', async () => {
    // Every connection reset after the request was sent: each batch is in doubt.
    const resetting = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--chaos', 'reset=100%']);
    try {
      const client = await connect(['--allow-send'], resetting.url);
      const result = await callTool(client, 'send_message', { clientId: ['a', 'b'], title: 'x' });
      expect(result.structuredContent).toMatchObject({ ok: false, exit_code: 5, state: 'in_doubt' });
      const runId = (result.structuredContent as { run_id: string }).run_id;
      const text = textOf(result);
      expect(text).toContain(`pushctl resend ${runId} --app-id ${APP} --base-url ${resetting.url} --include-in-doubt`);
      expect(text).toContain(`pushctl runs show ${runId} --report report.json`);
      expect(text).not.toContain('--retry-in-doubt');
      for (const line of text.split('\n')) expect(withoutCommands(line)).not.toMatch(FLAG);
    } finally {
      await resetting.stop();
    }
  });
});

describe("pushctl mcp: the message's own words", () => {
  it('a title that reads like a flag is shown as written by list_runs and show_run, in text and structure', async () => {
    const client = await connect();
    const title = 'Use --to friends and runs show x';
    const checked = await callTool(client, 'dry_run', { all: true, title });
    const runId = (checked.structuredContent as { run_id: string }).run_id;
    const listed = await callTool(client, 'list_runs', {});
    expect(textOf(listed)).toContain(title);
    const shown = await callTool(client, 'show_run', { run: runId });
    expect(textOf(shown)).toContain(title);
    expect(shown.structuredContent).toMatchObject({ run: { title } });
  });
});
