// A second, independent MCP client lists pushctl mcp's tools: the MCP Inspector in its command-line mode,
// which .ci/run installs into the git-ignored .mcp-inspector/ (about 150 MB, too much for every install).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runProcess } from '../helpers/run-cli.js';

const INSPECTOR = fileURLToPath(new URL('../../.mcp-inspector/node_modules/.bin/mcp-inspector', import.meta.url));
const SECRET = 'inspector-secret-3c1f';
const present = existsSync(INSPECTOR);
if (!present) console.log('mcp-inspector: skipping the second MCP client: run .ci/run once to install it into .mcp-inspector/');

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret: SECRET }] });
});
afterAll(() => emulator.close());

describe.skipIf(!present)('the MCP Inspector (command-line mode) against pushctl mcp', () => {
  it('lists the tools, without and with --allow-send, and never sees the secret', async () => {
    const list = (extra: string[]) =>
      runProcess(INSPECTOR, ['--cli', process.execPath, BIN, 'mcp', '--base-url', emulator.url, '--app-id', 'app', ...extra, '--method', 'tools/list'], {
        env: cleanEnv({ PUSHCTL_APP_SECRET: SECRET }),
        timeout: 60_000,
      });
    const plain = await list([]);
    expect(plain.code, plain.stderr).toBe(0);
    const names = (JSON.parse(plain.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
    expect(names).toEqual(['dry_run', 'list_inbox', 'list_runs', 'message_schema', 'send_message', 'show_run', 'validate_message'].filter((n) => n !== 'send_message'));
    const sending = await list(['--allow-send']);
    expect(sending.code, sending.stderr).toBe(0);
    const tools = (JSON.parse(sending.stdout) as { tools: { name: string; annotations?: { destructiveHint?: boolean } }[] }).tools;
    expect(tools.find((t) => t.name === 'send_message')?.annotations?.destructiveHint).toBe(true);
    for (const text of [plain.stdout, plain.stderr, sending.stdout, sending.stderr]) expect(text).not.toContain(SECRET);
  }, 120_000);
});
