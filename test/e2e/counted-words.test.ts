// Counts are said in words that agree with them: "1 recipient", "2 recipients", "1 batch in doubt", "3
// batches in doubt" — in every line about a run (the skip of --once, a resend and its preview).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let home: string;
let emu: Emulator;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pushctl-counted-'));
  emu = await createEmulator({ port: 0, rate: 0 });
});
afterAll(async () => {
  await emu.close();
  rmSync(home, { recursive: true, force: true });
});

const env = (runs: string) => cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_APP_ID: 'demo-app', PUSHCTL_JOURNAL_DIR: join(home, runs) });
const cli = (args: string[], runs: string) => runCli(args, { env: env(runs), cwd: home });
const newestRun = (runs: string) => readdirSync(join(home, runs)).filter((f) => f.endsWith('.jsonl')).sort().at(-1)!.replace(/\.jsonl$/, '');
const PLURAL_AFTER_ONE = /\b1 (recipients|batches|requests|targets)\b/;

describe('one of a thing is said in the singular', () => {
  it('the --once skip of a run to one recipient', async () => {
    const send = ['send', '--base-url', emu.url, '--client-id', 'solo', '--title', 'Hi', '--once', 'one-recipient'];
    expect((await cli(send, 'skip')).code).toBe(0);
    const again = await cli(send, 'skip');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('to 1 recipient;');
    expect(again.stderr).toContain('accepted 1 of 1 recipient');
    expect(again.stderr).not.toMatch(PLURAL_AFTER_ONE);
  });

  it('a resend of one recipient, and its preview', async () => {
    expect((await cli(['send', '--base-url', 'http://127.0.0.1:9', '--client-id', 'solo', '--title', 'Hi', '--max-attempts', '1'], 'resend')).code).toBe(5);
    const run = newestRun('resend');
    const preview = await cli(['resend', run, '--dry-run', '--base-url', emu.url], 'resend');
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout + preview.stderr).toContain('to 1 recipient: solo');
    const resent = await cli(['resend', run, '--base-url', emu.url], 'resend');
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stderr).toContain(`resending run ${run}: 1 recipient\n`);
    for (const text of [preview.stdout, preview.stderr, resent.stderr]) expect(text).not.toMatch(PLURAL_AFTER_ONE);
  });
});
