// Nothing lost, even under `kill -9` (issue 10): the built binary sends 50,000 IDs to a real `pushctl serve`
// that records what it delivered; the send is killed mid-way; the journal is read back with `pushctl runs
// show`; the printed resend command finishes the job. Every step is checked against what the emulator
// recorded, never against timing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { shellWords } from '../helpers/shell-words.js';

const SECRET = 'kill-secret-5d2a';
const TOTAL = 50_000;
const ids = Array.from({ length: TOTAL }, (_, i) => `k${String(i).padStart(6, '0')}`);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-kill-'));
  writeFileSync(join(dir, 'ids.txt'), `${ids.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (journalDir: string) => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journalDir });

/**
 * Every emulator of this file answers with faults: rate limits and a gateway's 503 (not processed, retried),
 * 500s and resets after processing (delivered, so the sender must mark them unknown), and latency.
 */
const EMULATOR_FLAGS = ['--rate', '25', '--chaos', '22001=3%,503=4%,500=3%,reset=3%,latency=5-60ms', '--chaos-seed', '11'];

interface Served {
  url: string;
  record: string;
  stop(): Promise<void>;
}

/** A real `pushctl serve` on port 0, recording what it delivered. */
async function serve(name: string, extra: string[] = []): Promise<Served> {
  const record = join(dir, `${name}.record.jsonl`);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--app', `app:${SECRET}`, '--record', record, ...EMULATOR_FLAGS, ...extra], {
    env: cleanEnv() as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`pushctl serve exited with ${code}`)));
  });
  return {
    url,
    record,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Every client ID the emulator delivered, with how often (dry runs are never delivered). */
function delivered(record: string): Map<string, number> {
  const counts = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(record, 'utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    const message = JSON.parse(line) as { delivered: boolean; body: { condition: { client_ids?: string[] } } };
    if (!message.delivered) continue;
    for (const id of message.body.condition.client_ids ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Starts `pushctl send` and resolves with the child once the emulator has delivered at least `batches` batches. */
function sendUntil(served: Served, journalDir: string, batches: number): Promise<{ child: ChildProcess; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'send', '--base-url', served.url, '--app-id', 'app', '--title', 'Kill test', '--client-ids-file', 'ids.txt', '--concurrency', '4'], {
    cwd: dir,
    env: env(journalDir) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      let lines = 0;
      try {
        lines = readFileSync(served.record, 'utf8').split('\n').length - 1;
      } catch {
        // Not created yet.
      }
      if (lines >= batches) {
        clearInterval(poll);
        resolve({ child, exit });
      }
    }, 20);
    void exit.then((code) => {
      clearInterval(poll);
      reject(new Error(`send ended (${code}) before ${batches} batches were delivered: ${stderr}`));
    });
  });
}

const journalIn = (journalDir: string) => {
  const files = readdirSync(journalDir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(journalDir, files[0]!);
};

type Report = Record<'accepted' | 'rejected' | 'unknown' | 'not_sent', { client_ids: string[] }[]>;

/** Reads the killed run back, checks it against what was delivered, runs the resend command, checks again. */
async function checkRecovery(served: Served, journalDir: string, name: string): Promise<void> {
  const journal = journalIn(journalDir);
  expect(statSync(journal).mode & 0o777).toBe(0o600);
  expect(statSync(journalDir).mode & 0o777).toBe(0o700);
  expect(readFileSync(journal, 'utf8')).not.toContain(SECRET);
  const reportName = `${name}.report.json`;
  const shown = await runCli(['runs', 'show', journal, '--report', reportName, '--json'], { env: env(journalDir), cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, reportName), 'utf8')) as Report;
  const section = (key: keyof Report) => new Set(report[key].flatMap((e) => e.client_ids));
  const all = (['accepted', 'rejected', 'unknown', 'not_sent'] as const).flatMap((key) => report[key].flatMap((e) => e.client_ids));
  // Every input ID exactly once.
  expect(all.length).toBe(TOTAL);
  expect(new Set(all).size).toBe(TOTAL);
  const accepted = section('accepted');
  const unknown = section('unknown');
  const before = delivered(served.record);
  for (const id of before.keys()) expect(accepted.has(id) || unknown.has(id), `${id} was delivered but is listed as neither accepted nor unknown`).toBe(true);
  for (const id of [...section('not_sent'), ...section('rejected')]) expect(before.has(id), `${id} is not_sent/rejected but was delivered`).toBe(false);

  // The printed resend command finishes the job.
  const document = JSON.parse(shown.stdout) as { run: { resend_command?: string } };
  expect(document.run.resend_command).toBeDefined();
  const [program, ...args] = shellWords(document.run.resend_command!);
  expect(program).toBe('pushctl');
  const again = await runCli(args, { env: env(journalDir), cwd: dir });
  expect([0, 7], again.stderr).toContain(again.code);
  const after = delivered(served.record);
  for (const id of ids) expect(after.has(id), `${id} was never delivered`).toBe(true);
  for (const [id, times] of after) if (times > 1) expect(unknown.has(id), `${id} delivered ${times} times but was not unknown`).toBe(true);
}

describe('a killed send loses nothing (built binary, pushctl serve --record)', () => {
  for (const batches of [1, 12, 35]) {
    it(`SIGKILL after ${batches} delivered batch(es): runs show lists every ID once, and the resend completes the job`, async () => {
      const served = await serve(`kill-${batches}`);
      const journalDir = join(dir, `journal-kill-${batches}`);
      try {
        const { child, exit } = await sendUntil(served, journalDir, batches);
        child.kill('SIGKILL');
        await exit;
        // No closing record and its process gone: the list calls it killed.
        const listed = await runCli(['runs', '--json'], { env: env(journalDir), cwd: dir });
        expect((JSON.parse(listed.stdout) as { runs: { state: string }[] }).runs.map((r) => r.state)).toEqual(['killed']);
        await checkRecovery(served, journalDir, `kill-${batches}`);
      } finally {
        await served.stop();
      }
    }, 60_000);
  }

  for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${signal}: no new batches, those in flight finish, the journal closes as interrupted, and the resend completes the job`, async () => {
      const served = await serve(signal);
      const journalDir = join(dir, `journal-${signal}`);
      try {
        const { child, exit } = await sendUntil(served, journalDir, 5);
        child.kill(signal);
        expect(await exit).toBe(7);
        const lines = readFileSync(journalIn(journalDir), 'utf8').trim().split('\n');
        expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({ t: 'end', interrupted: true, exit_code: 7 });
        await checkRecovery(served, journalDir, signal);
      } finally {
        await served.stop();
      }
    }, 60_000);
  }
});

describe("GitHub's cancel sequence: SIGINT, then SIGTERM 7.5 s later, while the chaos mode delays answers", () => {
  it('in-flight requests become unknown, the journal is closed and the report written, and the resend completes the job', async () => {
    const served = await serve('cancel');
    const journalDir = join(dir, 'journal-cancel');
    try {
      const { child, exit } = await sendUntil(served, journalDir, 4);
      // From now on every answer is held 30 s after the emulator has processed the request.
      const put = await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: JSON.stringify({ spec: 'latency=30000ms' }) });
      expect(put.status).toBe(200);
      const heldFrom = delivered(served.record).size;
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (delivered(served.record).size > heldFrom) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      child.kill('SIGINT');
      const term = setTimeout(() => child.kill('SIGTERM'), 7_500);
      const code = await exit;
      clearTimeout(term);
      expect(code).toBe(7);
      const lines = readFileSync(journalIn(journalDir), 'utf8').trim().split('\n');
      const end = JSON.parse(lines[lines.length - 1]!) as { t: string; interrupted: boolean; summary: { recipients: { unknown: number } } };
      expect(end).toMatchObject({ t: 'end', interrupted: true });
      expect(end.summary.recipients.unknown).toBeGreaterThan(0);
      await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: 'off' });
      await checkRecovery(served, journalDir, 'cancel');
    } finally {
      await served.stop();
    }
  }, 90_000);
});
