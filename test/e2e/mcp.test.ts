// `pushctl mcp` driven as a coding agent's client drives it: the built server spawned over stdio by the SDK's
// own Client, against the real emulator on port 0. The Client checks every structuredContent against the
// outputSchema the server listed, so each call below also checks the result's shape.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { closedPort } from '../helpers/scripted-server.js';
import { BIN, cleanEnv, runCli, runProcess } from '../helpers/run-cli.js';

// A secret that must never reach a schema, a result, an error or the server's log.
const CANARY = 'mcp-canary-S3CR3T-71b9';
const APP = 'app-mcp';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let emulator: Emulator;
let slow: Emulator;
let home: string;
let journals: string;
/** Everything any server or result said, checked for the secret at the end. */
const seen: string[] = [];
const open: Client[] = [];

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, apps: [{ id: APP, secret: CANARY }], rate: 0 });
  // Slow answers, so a send of many batches is still running when it is killed.
  slow = await createEmulator({ port: 0, apps: [{ id: APP, secret: CANARY }], rate: 0, chaos: 'latency=150-150ms' });
  home = mkdtempSync(join(tmpdir(), 'pushctl-mcp-'));
  journals = join(home, 'runs');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await emulator.close();
  await slow.close();
  rmSync(home, { recursive: true, force: true });
});

const env = (extra: Record<string, string | undefined> = {}) => {
  const all = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: journals, PUSHCTL_APP_SECRET: CANARY, ...extra });
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
};

/** Starts the built `pushctl mcp` with these flags and connects the SDK's Client to it. */
async function connect(flags: string[], extra: Record<string, string | undefined> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: env(extra), cwd: home, stderr: 'pipe' });
  let stderr = '';
  (transport.stderr as Readable).setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    seen.push(d);
  });
  const client = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

const target = (url = emulator.url) => ['--base-url', url, '--app-id', APP];

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Record<string, unknown> };
  seen.push(JSON.stringify(result));
  return result;
}
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('pushctl mcp: the tools offered', () => {
  it('lists the read-only tools and list_inbox for an emulator; send_message only with --allow-send, marked destructive', async () => {
    const { client } = await connect(target());
    const { tools } = await client.listTools();
    seen.push(JSON.stringify(tools));
    expect(tools.map((t) => t.name).sort()).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'show_run', 'validate_message']);
    // The message argument is the message file's own schema (pushctl schema) in outline, derived from the validator's.
    const validate = tools.find((t) => t.name === 'validate_message')!;
    const message = (validate.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>).message!;
    expect(Object.keys(message.properties!)).toEqual(expect.arrayContaining(['type', 'time_to_live', 'condition', 'notification', 'data']));
    expect(validate.outputSchema).toBeDefined();
    expect(validate.annotations).toMatchObject({ readOnlyHint: true });
    expect(JSON.stringify(tools)).not.toMatch(/secret/i);

    const allowed = await connect([...target(), '--allow-send']);
    const withSend = (await allowed.client.listTools()).tools;
    expect(withSend.map((t) => t.name).sort()).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'send_message', 'show_run', 'validate_message']);
    expect(withSend.find((t) => t.name === 'send_message')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it('offers no list_inbox when the base URL is not an emulator', async () => {
    const { client } = await connect(target(`http://127.0.0.1:${await closedPort()}`));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['dry_run', 'list_runs', 'message_schema', 'show_run', 'validate_message']);
  });

  it('list_inbox called at a vendor region is refused without asking it: the region has no inbox', async () => {
    const { client } = await connect(['--region', 'india', '--app-id', APP]);
    const r = await call(client, 'list_inbox', {});
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, exit_code: 6 });
    expect(textOf(r)).toContain('https://ind-pushapi.twibida.com is the Push Message Service itself, not an emulator: it has no inbox');
    expect(textOf(r)).not.toContain('cannot reach');
  });

  it('answers send_message without --allow-send with an error that says how to allow it, and sends nothing', async () => {
    const { client } = await connect(target());
    const before = emulator.messages(APP).length;
    const r = await call(client, 'send_message', { all: true, title: 'Not allowed' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('--allow-send');
    expect(emulator.messages(APP).length).toBe(before);
  });
});

describe('pushctl mcp: messages', () => {
  it('validate_message returns the normalised body of a valid message, with no network', async () => {
    const { client } = await connect(target(`http://127.0.0.1:${await closedPort()}`));
    await client.listTools();
    const r = await call(client, 'validate_message', { message: { type: 1, time_to_live: 60, condition: { type: 1, targeting: { country: ['us'] } }, notification: { title: 'Hi' } } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ ok: true, exit_code: 0, valid: true, body: { condition: { type: 1, targeting: { country: ['US'] } } } });
    expect(textOf(r)).toContain('valid');
  });

  it('validate_message returns the findings of an invalid message with their JSON paths and fixes', async () => {
    const { client } = await connect(target());
    await client.listTools();
    const r = await call(client, 'validate_message', { title: 'Sale', country: ['UK'] });
    expect(r.structuredContent).toMatchObject({ ok: false, exit_code: 3, valid: false, body: null });
    const errors = r.structuredContent.errors as { path: string; rule: string; fix?: string }[];
    expect(errors).toContainEqual(expect.objectContaining({ path: 'condition.targeting.country[0]', rule: 'country', fix: 'use GB' }));
    expect(textOf(r)).toContain('condition.targeting.country[0]');
  });

  it('validate_message of a message with variants answers what validate --json says: every variant as sent', async () => {
    const message = { type: 1, time_to_live: 60, notification: { title: 'New' }, variants: { fr: { notification: { title: 'Nouveau' } } } };
    const work = mkdtempSync(join(home, 'variants-'));
    writeFileSync(join(work, 'm.json'), JSON.stringify(message));
    const cli = await runCli(['validate', '-f', 'm.json', '--language', 'fr,en', '--json'], { env: env(), cwd: work });
    expect(cli.code, cli.stderr).toBe(0);
    const { client } = await connect(target());
    await client.listTools();
    const r = await call(client, 'validate_message', { message, language: ['fr', 'en'] });
    expect(r.isError).toBeFalsy();
    const document = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(r.structuredContent.variants).toEqual(document.variants);
    expect(r.structuredContent).toMatchObject({ body: document.body, warnings: document.warnings, notes: document.notes });
    expect(textOf(r)).toContain('"Nouveau"');
  });

  it('dry_run has the emulator check the message: a message_id, nothing delivered, the run journaled', async () => {
    const { client } = await connect(target());
    await client.listTools();
    const r = await call(client, 'dry_run', { message: { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Dry {{who}}' } }, vars: { who: 'run' } });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ ok: true, exit_code: 0, dry_run: true, skipped: false });
    const [id] = r.structuredContent.message_ids as string[];
    const stored = emulator.messages(APP).find((m) => m.message_id === id);
    expect(stored).toMatchObject({ dry_run: true, delivered: false, body: { notification: { title: 'Dry run' } } });
    expect(r.structuredContent.run_id).toMatch(/\S/);
  });

  it('an invalid message to dry_run is an error result with its findings, and nothing is sent', async () => {
    const { client } = await connect(target());
    await client.listTools();
    const before = emulator.messages(APP).length;
    const r = await call(client, 'dry_run', { all: true, title: 'x', smallIconColor: 'red' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, exit_code: 3 });
    expect((r.structuredContent.errors as { path: string }[]).map((e) => e.path)).toContain('notification.small_icon_color');
    expect(emulator.messages(APP).length).toBe(before);
  });

  it('send_message with once sends the first time and skips the second; list_inbox then shows the message', async () => {
    const { client } = await connect([...target(), '--allow-send']);
    await client.listTools();
    const args = { clientId: ['device-1', 'device-2'], title: 'Order shipped', desc: 'On its way', once: 'order-42-shipped' };
    const first = await call(client, 'send_message', args);
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ ok: true, exit_code: 0, dry_run: false, skipped: false });
    const [id] = first.structuredContent.message_ids as string[];
    const delivered = emulator.messages(APP).filter((m) => m.body.notification?.title === 'Order shipped');
    expect(delivered.map((m) => m.message_id)).toEqual([id]);
    expect(delivered[0]!.body.condition.client_ids).toEqual(['device-1', 'device-2']);

    const second = await call(client, 'send_message', args);
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ ok: true, skipped: true, once: 'order-42-shipped', run_id: first.structuredContent.run_id, message_ids: [id] });
    expect(textOf(second)).toContain('already done');
    expect(emulator.messages(APP).filter((m) => m.body.notification?.title === 'Order shipped')).toHaveLength(1);

    const inbox = await call(client, 'list_inbox', { limit: 5 });
    expect(inbox.isError, textOf(inbox)).toBeFalsy();
    expect(inbox.structuredContent).toMatchObject({ ok: true, app_id: APP });
    expect((inbox.structuredContent.messages as { message_id: string; delivered: boolean }[]).find((m) => m.message_id === id)).toMatchObject({ delivered: true });
    // Its first line counts in words that agree with the count, as every other answer does.
    const kept = inbox.structuredContent.kept as number;
    const shown = (inbox.structuredContent.messages as unknown[]).length;
    expect(textOf(inbox).split('\n')[0]).toBe(`${shown} of ${kept} kept message${kept === 1 ? '' : 's'} at ${emulator.url} for app ${APP}`);
  });
});

describe('pushctl mcp: settings as in the CLI', () => {
  it('takes its settings from a profile of the config file: the server\'s, or one a call names', async () => {
    const work = mkdtempSync(join(home, 'profiles-'));
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ appId: 'nowhere', baseUrl: `http://127.0.0.1:${await closedPort()}`, profiles: { emu: { appId: APP, baseUrl: emulator.url } } }));
    const transport = (flags: string[]) => new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: env(), cwd: work, stderr: 'ignore' });
    const byFlag = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
    await byFlag.connect(transport(['--profile', 'emu']));
    open.push(byFlag);
    expect((await byFlag.listTools()).tools.map((t) => t.name)).toContain('list_inbox');

    const byCall = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
    await byCall.connect(transport([]));
    open.push(byCall);
    expect((await byCall.listTools()).tools.map((t) => t.name)).not.toContain('list_inbox');
    const r = (await byCall.callTool({ name: 'dry_run', arguments: { all: true, title: 'By profile', profile: 'emu' } })) as CallToolResult & { structuredContent: Record<string, unknown> };
    seen.push(JSON.stringify(r));
    expect(r.isError, textOf(r)).toBeFalsy();
    const [id] = r.structuredContent.message_ids as string[];
    expect(emulator.messages(APP).find((m) => m.message_id === id)?.body.notification?.title).toBe('By profile');
  });
});

describe('pushctl mcp: named audiences, as --to in the CLI', () => {
  it('validate_message, dry_run and send_message take `to`: the audience of the config file, as --to gives it', async () => {
    const work = mkdtempSync(join(home, 'audiences-'));
    writeFileSync(join(work, 'testers.txt'), 'phone-3\nphone-4\n');
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ appId: APP, baseUrl: emulator.url, audiences: { 'my-phones': { client_ids: ['phone-1', 'phone-2'] }, testers: { client_ids_file: 'testers.txt' } } }));
    const cli = await runCli(['validate', '--to', 'testers', '--title', 'To mine', '--json'], { env: env(), cwd: work });
    expect(cli.code, cli.stderr).toBe(0);
    const client = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-send'], env: env(), cwd: work, stderr: 'ignore' }));
    open.push(client);

    const checked = await call(client, 'validate_message', { to: 'testers', title: 'To mine' });
    expect(checked.isError, textOf(checked)).toBeFalsy();
    expect(checked.structuredContent.body).toEqual((JSON.parse(cli.stdout) as { body: unknown }).body);

    const sent = await call(client, 'send_message', { to: 'my-phones', title: 'To my phones' });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    const [id] = sent.structuredContent.message_ids as string[];
    expect(emulator.messages(APP).find((m) => m.message_id === id)?.body.condition.client_ids).toEqual(['phone-1', 'phone-2']);

    // An unknown name and a second way of choosing recipients are refused as the CLI refuses them, in the tool's terms.
    const typo = await runCli(['dry-run', '--to', 'my-phone', '--title', 'x', '--json'], { env: env(), cwd: work });
    const unknown = await call(client, 'dry_run', { to: 'my-phone', title: 'x' });
    expect(unknown.isError).toBe(true);
    const cliError = (JSON.parse(typo.stdout) as { error: { message: string; hint: string } }).error;
    expect(cliError.message).toBe('--to my-phone: no such audience');
    expect(unknown.structuredContent).toMatchObject({ ok: false, exit_code: 2, error: { message: '`to` "my-phone": no such audience', hint: cliError.hint } });
    const both = await call(client, 'dry_run', { to: 'my-phones', clientId: ['x'], title: 'x' });
    expect(both.structuredContent).toMatchObject({ ok: false, exit_code: 2 });
  });

  it("validate_message reads `to` from the server's -c and --profile (or the call's profile), as dry_run does", async () => {
    const work = mkdtempSync(join(home, 'audiences-elsewhere-'));
    const config = join(work, 'pushctl.json');
    writeFileSync(config, JSON.stringify({ appId: APP, baseUrl: emulator.url, audiences: { mine: { client_ids: ['top-1'] } }, profiles: { eu: { audiences: { 'eu-phones': { client_ids: ['eu-1'] } } } } }));
    // Started elsewhere: the config file is found only through -c.
    const { client } = await connect(['-c', config, '--profile', 'eu']);
    const byServer = await call(client, 'validate_message', { to: 'eu-phones', title: 'x' });
    expect(byServer.isError, textOf(byServer)).toBeFalsy();
    expect(byServer.structuredContent.body).toMatchObject({ condition: { type: 2, client_ids: ['eu-1'] } });
    const top = await call(client, 'validate_message', { to: 'mine', title: 'x', profile: 'eu' });
    expect(top.structuredContent.body).toMatchObject({ condition: { type: 2, client_ids: ['top-1'] } });
  });
});

describe('pushctl mcp: several targets, as in the CLI', () => {
  it('send_message to a profile list sends to each target once, a row each; the same once key again sends nothing', async () => {
    const work = mkdtempSync(join(home, 'targets-'));
    // The second region's service of its own: the other tests count what the shared ones received.
    const us = await createEmulator({ port: 0, apps: [{ id: APP, secret: CANARY }], rate: 0 });
    onTestFinished(() => us.close());
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: APP, baseUrl: emulator.url }, us: { appId: APP, baseUrl: us.url } } }));
    // Each profile's own secret; a single one for both would be refused, as in the CLI.
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-send'], env: env({ PUSHCTL_APP_SECRET: undefined, PUSHCTL_APP_SECRET_EU: CANARY, PUSHCTL_APP_SECRET_US: CANARY }), cwd: work, stderr: 'ignore' });
    const client = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    const args = { clientId: ['both-1', 'both-2'], title: 'Both regions', profile: 'eu,us', once: 'both-regions-1' };
    const sentTo = (server: Emulator) => server.messages(APP).filter((m) => m.body.notification?.title === 'Both regions');

    const first = await call(client, 'send_message', args);
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ ok: true, exit_code: 0, skipped: false });
    const targets = first.structuredContent.targets as { profile: string; state: string; base_url: string; message_ids: string[] }[];
    expect(targets.map((t) => [t.profile, t.state])).toEqual([['eu', 'sent'], ['us', 'sent']]);
    expect(sentTo(emulator).map((m) => m.message_id)).toEqual(targets[0]!.message_ids);
    expect(sentTo(us).map((m) => m.message_id)).toEqual(targets[1]!.message_ids);
    expect(textOf(first)).toMatch(/eu[\s\S]*us/);

    // show_run of the family, as runs show: every target, not the first alone.
    const shown = await call(client, 'show_run', { run: first.structuredContent.run_id as string });
    expect(shown.isError, textOf(shown)).toBeFalsy();
    const run = shown.structuredContent.run as { state: string; target_runs?: { profile: string }[]; summary: { recipients: { accepted: number } } };
    expect(run.target_runs?.map((t) => t.profile)).toEqual(['eu', 'us']);
    expect(run).toMatchObject({ state: 'sent', summary: { recipients: { accepted: 4 } } });
    expect(textOf(shown)).toMatch(/target eu[\s\S]*target us/);

    const second = await call(client, 'send_message', args);
    expect(second.isError, textOf(second)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({ ok: true, skipped: true });
    expect(sentTo(emulator)).toHaveLength(1);
    expect(sentTo(us)).toHaveLength(1);

    // One secret for every profile would go to both destinations: refused before anything is sent, as in the CLI.
    const shared = new Client({ name: 'pushctl-e2e', version: '1.0.0' });
    await shared.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-send'], env: env(), cwd: work, stderr: 'ignore' }));
    open.push(shared);
    const refused = await call(shared, 'send_message', { ...args, once: 'both-regions-2' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ ok: false, exit_code: 2, error: { message: expect.stringContaining('PUSHCTL_APP_SECRET') } });
    expect(sentTo(emulator)).toHaveLength(1);
    expect(sentTo(us)).toHaveLength(1);
  });
});

describe('pushctl mcp: runs', () => {
  it('list_runs and show_run read a send killed mid-run (SIGKILL) as killed, with the command that finishes it', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `kill-${i}`);
    writeFileSync(join(home, 'ids.txt'), `${ids.join('\n')}\n`);
    const child = spawn(process.execPath, [BIN, 'send', ...target(slow.url), '--title', 'Killed mid-run', '--client-ids-file', 'ids.txt', '--batch-size', '1', '--concurrency', '1'], {
      cwd: home,
      env: env() as NodeJS.ProcessEnv,
      stdio: 'ignore',
    });
    const ended = new Promise((resolve) => child.on('close', resolve));
    // Killed once the emulator has taken three batches: no timing, only what was delivered.
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (slow.messages(APP).length >= 3) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
      child.on('close', () => {
        clearInterval(poll);
        reject(new Error('the send ended before it was killed'));
      });
    });
    child.kill('SIGKILL');
    await ended;
    const runId = readdirSync(journals)
      .filter((file) => file.endsWith('.jsonl'))
      .map((file) => readFileSync(join(journals, file), 'utf8'))
      .map((text) => JSON.parse(text.split('\n')[0]!) as { run_id: string; argv: string[] })
      .find((header) => header.argv.includes('Killed mid-run'))!.run_id;

    const { client } = await connect(target());
    await client.listTools();
    const listed = await call(client, 'list_runs', { limit: 50 });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const run = (listed.structuredContent.runs as { run_id: string; state: string; exit_code: number | null; title: string }[]).find((r) => r.run_id === runId);
    expect(run).toMatchObject({ state: 'killed', exit_code: null, title: 'Killed mid-run' });

    const shown = await call(client, 'show_run', { run: runId });
    expect(shown.isError, textOf(shown)).toBeFalsy();
    const detail = shown.structuredContent.run as { state: string; message_ids: string[]; resend_command: string; summary: { recipients: { total: number; accepted: number } } };
    expect(detail.state).toBe('killed');
    expect(detail.summary.recipients.total).toBe(ids.length);
    // What the journal holds as accepted, the emulator did take; a batch in flight at the kill is no message_id.
    expect(detail.message_ids.length).toBeGreaterThanOrEqual(2);
    expect(detail.summary.recipients.accepted).toBe(detail.message_ids.length);
    expect(slow.messages(APP).map((m) => m.message_id)).toEqual(expect.arrayContaining(detail.message_ids));
    // The run's own settings flags come along: a resend sends only where the settings in force point.
    expect(detail.resend_command).toBe(`pushctl resend ${runId} --base-url ${slow.url} --app-id ${APP}`);
    expect(textOf(shown)).toContain(runId);

    const missing = await call(client, 'show_run', { run: 'no-such-run' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ ok: false, exit_code: 2, error: { message: expect.stringContaining('no run "no-such-run"'), hint: expect.stringContaining('list the runs') } });
  });
});

describe('pushctl mcp: failures are results, never a crashed server', () => {
  it('a wrong secret is an error result naming 21004 and what to do', async () => {
    const { client } = await connect(target(), { PUSHCTL_APP_SECRET: 'not-the-secret' });
    await client.listTools();
    const r = await call(client, 'dry_run', { all: true, title: 'Hi' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, exit_code: 4 });
    const error = r.structuredContent.error as { message: string; hint: string };
    expect(error.message).toContain('21004');
    expect(error.hint).toContain('copy it again from the vendor console');
    expect(textOf(r)).toMatch(/^error: .*21004[\s\S]*hint: .*copy it again/);
  });

  it('no secret: the hint offers the ways the server reads one, not --app-secret-stdin, which it refuses', async () => {
    const { client } = await connect(target(), { PUSHCTL_APP_SECRET: undefined });
    const r = await call(client, 'dry_run', { all: true, title: 'Hi' });
    expect(r.structuredContent).toMatchObject({ ok: false, exit_code: 6, error: { message: 'no app secret configured' } });
    const { hint } = r.structuredContent.error as { hint: string };
    expect(hint).toContain('PUSHCTL_APP_SECRET');
    expect(hint).toContain('--app-secret-file');
    expect(hint).not.toContain('--app-secret-stdin');
  });

  it('malformed arguments and an unknown tool are answered, and the server goes on serving', async () => {
    const { client, stderr } = await connect(target());
    await client.listTools();
    const wrongType = await call(client, 'validate_message', { title: 42, all: true });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.structuredContent).toMatchObject({ ok: false, exit_code: 2, error: { message: 'validate_message: title must be a string, got number' } });
    const typo = await call(client, 'dry_run', { all: true, titel: 'x' });
    expect(typo.isError).toBe(true);
    expect((typo.structuredContent.error as { message: string }).message).toContain('unknown argument "titel" (did you mean "title"?)');
    // A flag's name tried as an argument is quoted back as given, not reworded into the argument it stands for.
    const flagName = await call(client, 'dry_run', { all: true, '--desc': 'x' });
    expect((flagName.structuredContent.error as { message: string }).message).toContain('unknown argument "--desc" (did you mean "desc"?)');
    expect(textOf(flagName)).toContain('unknown argument "--desc" (did you mean "desc"?)');
    const notAnObject = await call(client, 'show_run', { run: ['a'] });
    expect(notAnObject.isError).toBe(true);
    await expect(client.callTool({ name: 'dry_runn', arguments: {} })).rejects.toThrow(/unknown tool "dry_runn" \(did you mean "dry_run"\?\)/);
    const after = await call(client, 'validate_message', { all: true, title: 'still here' });
    expect(after.structuredContent).toMatchObject({ ok: true, valid: true });
    expect(stderr()).toContain('validate_message: error: validate_message: title must be a string');
  });

  it('a line that is not JSON-RPC is logged on stderr; stdout holds only protocol messages, and the next request is answered', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      'this is not json',
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'validate_message', arguments: { all: true, title: 'after garbage' } } },
    ];
    const r = await runProcess(process.execPath, [BIN, 'mcp', ...target()], { env: env(), cwd: home, input: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n' });
    seen.push(r.stdout, r.stderr);
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: { structuredContent?: { valid?: boolean } } });
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers.find((a) => a.id === 2)!.result.structuredContent).toMatchObject({ valid: true });
    expect(r.stderr).toContain('pushctl mcp: ');
    expect(r.stderr).toMatch(/not valid JSON/);
  });

  it('ends on SIGTERM (a client giving up on it) with the exit code of an interrupted run', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', ...target()], { cwd: home, env: env() as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Answered initialize: the server is up, with stdin still open.
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    await new Promise<void>((resolve) => child.stdout.on('data', () => stdout.includes('\n') && resolve()));
    child.kill('SIGTERM');
    expect(await closed).toBe(130);
    seen.push(stdout, stderr);
    expect(JSON.parse(stdout.trim())).toMatchObject({ id: 1, result: { serverInfo: { name: 'pushctl' } } });
    expect(stderr).toContain('SIGTERM: stopping');
    child.stdin.destroy();
  });

  it('refuses --app-secret-stdin: stdin carries the protocol', async () => {
    const r = await runCli(['mcp', '--app-secret-stdin'], { env: env(), cwd: home });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--app-secret-stdin cannot be used with mcp');
    expect(r.stderr).toContain('hint: use --app-secret-file <path>');
  });

  it('a secret that turns up in a message is masked in results and the log', async () => {
    const { client } = await connect([...target(), '--verbose']);
    await client.listTools();
    const r = await call(client, 'dry_run', { all: true, title: `leak ${CANARY}` });
    expect(r.isError, textOf(r)).toBeFalsy();
    const inbox = await call(client, 'list_inbox', { limit: 50 });
    expect(JSON.stringify(inbox)).toContain('leak ***');
  });
});

describe('pushctl mcp: the client configuration shown', () => {
  /** The `mcpServers` entry a text shows, and the server it describes started against this file's emulator. */
  async function startFrom(text: string): Promise<string[]> {
    const json = /\{\s*"mcpServers"[\s\S]*?\n\s*\}\s*\}\s*\}/.exec(text)![0];
    const entry = (JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers.pushctl!;
    expect(entry.command).toBe('pushctl');
    expect(entry.args[0]).toBe('mcp');
    const args = entry.args.slice(1).map((a) => (a === 'http://127.0.0.1:8787' ? emulator.url : a));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: env(entry.env), cwd: home, stderr: 'ignore' });
    const client = new Client({ name: 'pushctl-readme', version: '1.0.0' });
    await client.connect(transport);
    open.push(client);
    return (await client.listTools()).tools.map((t) => t.name).sort();
  }

  it("README's entry starts a server that lists the tools", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('--allow-send');
    expect(await startFrom(readme)).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'show_run', 'validate_message']);
  });

  it("--help's entry does too, and says what --allow-send means", async () => {
    const help = await runCli(['mcp', '--help'], { env: env(), cwd: home });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--allow-send\s+also offer send_message, which delivers to real\s+devices/);
    expect(help.stdout).not.toContain('--app-secret-stdin');
    expect(await startFrom(help.stdout)).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'show_run', 'validate_message']);
  });
});

describe('pushctl mcp: the package', () => {
  it('holds the MCP SDK in the mcp command\'s island alone', () => {
    const files = (readdirSync(join(ROOT, 'dist'), { recursive: true }) as string[]).filter((f) => /\.(c?js)$/.test(f));
    const withSdk = files.filter((f) => readFileSync(join(ROOT, 'dist', f), 'utf8').includes('notifications/initialized'));
    expect(withSdk).toEqual([join('commands', 'mcp', 'run.cjs')]);
    expect(readFileSync(join(ROOT, 'action', 'index.js'), 'utf8')).not.toContain('notifications/initialized');
  });
});

describe('pushctl mcp: the secret', () => {
  it('is in no tool list, result, error or log line of any server above', () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const text of seen) expect(text).not.toContain(CANARY);
  });
});
