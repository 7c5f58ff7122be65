// The resend commands the action prints (job summary, annotations) work as printed: pasted into a shell on a
// machine that has the journal directory and the app secret, and no other settings, each exits 0 and the
// service then holds every recipient the step left exactly once (docs/behaviour.md#action).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runStep, type StepRun } from '../helpers/action-step.js';
import { printedCommands } from '../helpers/printed-commands.js';
import { BIN, cleanEnv, runProcess } from '../helpers/run-cli.js';
import { closedPort } from '../helpers/scripted-server.js';

const SECRET = 'resend-S3CR3T-0c4e';
const APP = 'resend-app';
const MESSAGE = '{"type": 1, "time_to_live": 3600, "notification": {"title": "Hi"}}';
const IDS = ['device-a', 'device-b', 'device-c'];

let work: string;
let emulator: Emulator | undefined;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-resend-'));
  writeFileSync(join(work, 'm.json'), MESSAGE);
  writeFileSync(join(work, 'ids.txt'), `${IDS.join('\n')}\n`);
});
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  rmSync(work, { recursive: true, force: true });
});

const everything = (run: StepRun) => `${run.stdout}\n${run.stderr}\n${run.summary}`;

/** Each resend command the step printed, in the summary and in its annotations. */
function resendCommands(run: StepRun): { summary: string[]; log: string[] } {
  const resends = (text: string) => printedCommands(text).commands.filter((c) => c.startsWith('pushctl resend '));
  return { summary: resends(run.summary), log: resends(run.stdout) };
}

/**
 * Runs `command` with sh, as a user pastes it, in a directory of its own with `pushctl` on the PATH (the
 * built CLI) and only `env` besides: no config file, no settings but what the command names.
 */
async function paste(command: string, env: Record<string, string>, cwd: string) {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'pushctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pushctl'), 0o755);
  const home = mkdtempSync(join(work, 'home-'));
  const childEnv = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, ...env });
  return runProcess('/bin/sh', ['-c', command], { cwd, env: childEnv });
}

/** The client IDs the emulator holds, each as many times as it was sent. */
const sentIds = (app: string) => (emulator?.messages(app) ?? []).flatMap((m) => m.body.condition.client_ids ?? []).sort();

describe('the resend command the action prints works as printed', () => {
  it('inputs base-url and app-id: the service unreachable during the step, the command sends the rest once', async () => {
    const port = await closedPort();
    const journals = join(work, 'journals');
    // Nothing listens during the step: every recipient is certainly not sent.
    const run = await runStep(work, { file: 'm.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': `http://127.0.0.1:${port}`, 'journal-dir': journals });
    expect(run.outputs['not-sent'], everything(run)).toBe(String(IDS.length));
    const { summary, log } = resendCommands(run);
    expect(summary, run.summary).toHaveLength(1);

    emulator = await createEmulator({ port, rate: 0, apps: [{ id: APP, secret: SECRET }] });
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
    const env = { PUSHCTL_JOURNAL_DIR: journals, PUSHCTL_APP_SECRET: SECRET };
    const first = await paste(summary[0]!, env, elsewhere);
    expect(first.code, `${summary[0]}\n${first.stdout}\n${first.stderr}`).toBe(0);
    expect(sentIds(APP)).toEqual(IDS);
    // The annotation gives the same command, as a code span: pasted again, nothing is left to send.
    expect(log, run.stdout).toEqual(summary);
    const again = await paste(log[0]!, env, elsewhere);
    expect(again.code, again.stderr).toBe(0);
    expect(sentIds(APP)).toEqual(IDS);
  });

  it('input profiles: the command names the profile, whose config the repository holds', async () => {
    const port = await closedPort();
    const journals = join(work, 'journals');
    const config = JSON.stringify({ profiles: { eu: { appId: APP, baseUrl: `http://127.0.0.1:${port}` } } });
    writeFileSync(join(work, '.pushctlrc.json'), config);
    const run = await runStep(work, { file: 'm.json', 'client-ids-file': 'ids.txt', profiles: 'eu', 'journal-dir': journals }, { PUSHCTL_APP_SECRET_EU: SECRET });
    expect(run.outputs['not-sent'], everything(run)).toBe(String(IDS.length));
    const { summary, log } = resendCommands(run);
    expect(summary, run.summary).toHaveLength(1);

    emulator = await createEmulator({ port, rate: 0, apps: [{ id: APP, secret: SECRET }] });
    // Another checkout of the repository: its config file, and nothing else.
    const checkout = mkdtempSync(join(work, 'checkout-'));
    writeFileSync(join(checkout, '.pushctlrc.json'), config);
    const pasted = await paste(summary[0]!, { PUSHCTL_JOURNAL_DIR: journals, PUSHCTL_APP_SECRET_EU: SECRET }, checkout);
    expect(pasted.code, `${summary[0]}\n${pasted.stdout}\n${pasted.stderr}`).toBe(0);
    expect(sentIds(APP)).toEqual(IDS);
    expect(log, run.stdout).toEqual(summary);
  });
});
