// Nothing lost, even under `kill -9` (issue 10): the built binary sends 50,000 IDs to a real `pushctl serve`
// that records what it delivered; the send is killed mid-way; the journal is read back with `pushctl runs
// show`; the printed resend command finishes the job. Every step is checked against what the emulator
// recorded, never against timing.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { shellWords } from '../helpers/shell-words.js';
import { serveCli } from '../helpers/serve-cli.js';

const SECRET = 'kill-secret-5d2a';
const TOTAL = 50_000;
const ids = Array.from({ length: TOTAL }, (_, i) => `k${String(i).padStart(6, '0')}`);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-kill-'));
  writeFileSync(join(dir, 'ids.txt'), `${ids.join('\n')}\n`);
  writeFileSync(join(dir, 'big.txt'), `${Array.from({ length: BIG }, (_, i) => `b${String(i).padStart(7, '0')}`).join('\n')}\n`);
});
/** With --batch-size 1, one batch record a client ID: writing the plan takes long enough for a kill to land in it. */
const BIG = 200_000;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (journalDir: string) => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journalDir });

/**
 * Every emulator of this file answers with faults: rate limits and a gateway's 503 (not processed, retried),
 * 500s and resets after processing (delivered, so the sender must mark them in doubt), and latency.
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
  const { url, stop } = await serveCli(['--app', `app:${SECRET}`, '--record', record, ...EMULATOR_FLAGS, ...extra]);
  return { url, record, stop };
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

/** After the resend of what was not sent: every ID not in doubt delivered exactly once, none in doubt sent again. */
function expectOnceExceptInDoubt(list: readonly string[], unknown: ReadonlySet<string>, before: Map<string, number>, now: Map<string, number>): void {
  for (const id of list) {
    if (unknown.has(id)) expect(now.get(id) ?? 0, `${id} (in doubt) was sent again without --include-in-doubt`).toBe(before.get(id) ?? 0);
    else expect(now.get(id), `${id} should be delivered exactly once`).toBe(1);
  }
}

/** After the resend with --include-in-doubt: every ID delivered, twice only if it was in doubt. Returns how many twice. */
function expectAtMostTwiceInDoubt(list: readonly string[], unknown: ReadonlySet<string>, now: Map<string, number>): number {
  let duplicates = 0;
  for (const id of list) {
    const times = now.get(id) ?? 0;
    expect(times, `${id} was never delivered`).toBeGreaterThanOrEqual(1);
    if (times > 1) {
      duplicates += 1;
      expect(unknown.has(id), `${id} delivered ${times} times but was not in doubt`).toBe(true);
      expect(times).toBeLessThanOrEqual(2);
    }
  }
  return duplicates;
}

/** Requests a send keeps in flight at most (its --concurrency). */
const CONCURRENCY = 4;
const BATCHES = TOTAL / 1000;

/**
 * Requests the emulator has processed (stored, delivered or a dry run), asked of it directly: it counts
 * them as it processes them, while the record file is written behind.
 */
async function processed(served: Served): Promise<number> {
  const response = await fetch(`${served.url}/v1/emulator/messages?limit=1`);
  return ((await response.json()) as { accepted: number }).accepted;
}

/**
 * From now on every answer is held 30 s after the request is processed; resolves once the emulator has
 * processed a request that came after that, so a request is in flight — delivered, its answer not read —
 * whatever the machine's speed. Returns how many had been processed before the hold.
 */
async function holdUntilOneInFlight(served: Served, child: ChildProcess): Promise<number> {
  child.kill('SIGSTOP');
  await setChaos(served, 'latency=30000ms');
  // Read after the hold is in force: every request processed from here on has its answer held.
  const before = await processed(served);
  child.kill('SIGCONT');
  for (let polls = 0; (await processed(served)) <= before; polls++) {
    expect(polls, 'the send made no further request').toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return before;
}

/** Waits until the record file holds every request the emulator has processed (it is written behind). */
async function recordCaughtUp(served: Served): Promise<void> {
  const count = await processed(served);
  for (let polls = 0; readLines(served.record) < count; polls++) {
    expect(polls, 'the record file never caught up with the emulator').toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Records (delivered or not) the emulator has written so far. */
function readLines(record: string): number {
  try {
    return readFileSync(record, 'utf8').split('\n').length - 1;
  } catch {
    return 0;
  }
}

/** Starts `pushctl send` and resolves with the child once the emulator has delivered at least `batches` batches. */
function sendUntil(served: Served, journalDir: string, batches: number): Promise<{ child: ChildProcess; exit: Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'send', '--base-url', served.url, '--app-id', 'app', '--title', 'Kill test', '--client-ids-file', 'ids.txt', '--concurrency', String(CONCURRENCY)], {
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
        resolve({ child, exit, stderr: () => stderr });
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

type Report = Record<'accepted' | 'rejected' | 'in_doubt' | 'not_sent', { client_ids: string[] }[]>;

/** Sets the emulator's chaos (`off` for none): recovery is checked on answers that are all clear. */
async function setChaos(served: Served, spec: string): Promise<void> {
  const put = await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: spec === 'off' ? 'off' : JSON.stringify({ spec }) });
  expect(put.status).toBe(200);
}

/** The resends below pace themselves under the emulator's --rate 25. */
const RESEND_FLAGS = ['--rate', '20'];

/**
 * Reads the stopped run back and checks it against what was delivered; then, with the emulator's chaos off,
 * runs the printed resend command (not sent only) and then the one that includes those in doubt. Afterwards
 * every input ID is delivered exactly once, except those the journal honestly marked in doubt, which are
 * delivered at most twice, and the second time only with --include-in-doubt. Returns what it counted.
 */
async function checkRecovery(served: Served, journalDir: string, name: string, arranged: { inDoubt: boolean }): Promise<{ in_doubt: number; duplicates: number }> {
  const journal = journalIn(journalDir);
  expect(statSync(journal).mode & 0o777).toBe(0o600);
  expect(statSync(journalDir).mode & 0o777).toBe(0o700);
  expect(readFileSync(journal, 'utf8')).not.toContain(SECRET);
  const reportName = `${name}.report.json`;
  const shown = await runCli(['runs', 'show', journal, '--report', reportName, '--json'], { env: env(journalDir), cwd: dir });
  expect(shown.code, shown.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, reportName), 'utf8')) as Report;
  const section = (key: keyof Report) => new Set(report[key].flatMap((e) => e.client_ids));
  const all = (['accepted', 'rejected', 'in_doubt', 'not_sent'] as const).flatMap((key) => report[key].flatMap((e) => e.client_ids));
  // Every input ID exactly once.
  expect(all.length).toBe(TOTAL);
  expect(new Set(all).size).toBe(TOTAL);
  const accepted = section('accepted');
  const unknown = section('in_doubt');
  await recordCaughtUp(served);
  const before = delivered(served.record);
  for (const id of before.keys()) expect(accepted.has(id) || unknown.has(id), `${id} was delivered but is listed as neither accepted nor in doubt`).toBe(true);
  for (const id of [...section('not_sent'), ...section('rejected')]) expect(before.has(id), `${id} is not_sent/rejected but was delivered`).toBe(false);

  await setChaos(served, 'off');
  const document = JSON.parse(shown.stdout) as { run: { resend_command?: string; include_in_doubt_command?: string; in_doubt?: number } };
  expect(document.run.in_doubt ?? 0).toBe(unknown.size);
  // Every trial stops its send well before the end, so there is always something to resend.
  expect(section('not_sent').size, 'the run was stopped before its end: some batches are not sent').toBeGreaterThan(0);
  // A trial that arranged a request in flight at the stop has it in doubt.
  if (arranged.inDoubt) expect(unknown.size, 'the request in flight at the stop is in doubt').toBeGreaterThan(0);
  // 1. The printed resend command: only what was certainly not sent.
  // The run's settings flags come along: a resend sends only where the settings in force point.
  expect(document.run.resend_command).toMatch(/^pushctl resend \S+ --base-url http:\/\/127\.0\.0\.1:\d+ --app-id app$/);
  const [program, ...resendArgs] = shellWords(document.run.resend_command!);
  expect(program).toBe('pushctl');
  const resent = await runCli([...resendArgs, ...RESEND_FLAGS], { env: env(journalDir), cwd: dir });
  expect(resent.code, resent.stderr).toBe(0);
  expectOnceExceptInDoubt(ids, unknown, before, delivered(served.record));
  // 2. Those in doubt, only when asked: at most twice. With none in doubt (the signal trials, whose
  // requests in flight finish, unless the chaos answered one with a 500 or a reset) there is no command.
  if (unknown.size === 0) expect(document.run.include_in_doubt_command).toBeUndefined();
  else {
    expect(document.run.include_in_doubt_command).toMatch(/^pushctl resend \S+ --base-url \S+ --app-id app --include-in-doubt$/);
    const [, ...args] = shellWords(document.run.include_in_doubt_command!);
    const again = await runCli([...args, ...RESEND_FLAGS], { env: env(journalDir), cwd: dir });
    expect(again.code, again.stderr).toBe(0);
  }
  const duplicates = expectAtMostTwiceInDoubt(ids, unknown, delivered(served.record));
  // Resending the run again finds nothing left: the run and its resends are one family.
  const last = await runCli(['resend', journal, '--json'], { env: env(journalDir), cwd: dir });
  expect(last.code, last.stderr).toBe(0);
  expect(JSON.parse(last.stdout)).toMatchObject({ would_send: false, not_sent: 0, in_doubt: 0 });
  trials.push({ name, in_doubt: unknown.size, duplicates });
  return { in_doubt: unknown.size, duplicates };
}

/** The matrix's results, printed at the end (the closing note's table). */
const trials: { name: string; in_doubt: number; duplicates: number }[] = [];
afterAll(() => {
  console.log(`kill matrix: ${trials.length} trials\n${trials.map((t) => `  ${t.name}: ${t.in_doubt} in doubt, ${t.duplicates} delivered twice (all in doubt, sent again with --include-in-doubt)`).join('\n')}`);
});

describe('a killed send loses nothing (built binary, pushctl serve --record)', () => {
  for (const batches of [1, 12, 35]) {
    it(`SIGKILL after ${batches} delivered batch(es), a request in flight: runs show lists every ID once, and the resends complete the job`, async () => {
      const served = await serve(`kill-${batches}`);
      const journalDir = join(dir, `journal-kill-${batches}`);
      try {
        const { child, exit } = await sendUntil(served, journalDir, batches);
        // The kill lands with a request in flight, the case a journal exists for.
        const before = await holdUntilOneInFlight(served, child);
        expect(before, 'the send was stopped too near its end to leave a batch unsent').toBeLessThan(BATCHES - CONCURRENCY);
        child.kill('SIGKILL');
        await exit;
        // No closing record and its process gone: the list calls it killed.
        const listed = await runCli(['runs', '--json'], { env: env(journalDir), cwd: dir });
        expect((JSON.parse(listed.stdout) as { runs: { state: string }[] }).runs.map((r) => r.state)).toEqual(['killed']);
        await checkRecovery(served, journalDir, `kill-${batches}`, { inDoubt: true });
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
        await checkRecovery(served, journalDir, signal, { inDoubt: false });
      } finally {
        await served.stop();
      }
    }, 60_000);
  }
});

describe("GitHub's cancel sequence: SIGINT, then SIGTERM 7.5 s later, while the chaos mode delays answers", () => {
  it('in-flight requests become in doubt, the journal is closed and the report written, and the resend completes the job', async () => {
    const served = await serve('cancel');
    const journalDir = join(dir, 'journal-cancel');
    try {
      const { child, exit } = await sendUntil(served, journalDir, 4);
      await holdUntilOneInFlight(served, child);
      child.kill('SIGINT');
      const term = setTimeout(() => child.kill('SIGTERM'), 7_500);
      const code = await exit;
      clearTimeout(term);
      expect(code).toBe(7);
      const lines = readFileSync(journalIn(journalDir), 'utf8').trim().split('\n');
      const end = JSON.parse(lines[lines.length - 1]!) as { t: string; interrupted: boolean; summary: { recipients: { in_doubt: number } } };
      expect(end).toMatchObject({ t: 'end', interrupted: true });
      expect(end.summary.recipients.in_doubt).toBeGreaterThan(0);
      await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: 'off' });
      await checkRecovery(served, journalDir, 'cancel', { inDoubt: true });
    } finally {
      await served.stop();
    }
  }, 90_000);
});

describe('the kill matrix: the plan, the closing record, a full disk', () => {
  it('SIGKILL while the plan is being written before sending (--once plans every recipient first): the journal reads incomplete, names what is missing, and is refused as a resend source', async () => {
    const served = await serve('plan');
    const journalDir = join(dir, 'journal-plan');
    mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    try {
      const child = spawn(process.execPath, [BIN, 'send', '--base-url', served.url, '--app-id', 'app', '--title', 'Kill test', '--client-ids-file', 'big.txt', '--batch-size', '1', '--once', 'plan-trial'], {
        cwd: dir,
        env: env(journalDir) as NodeJS.ProcessEnv,
        stdio: 'ignore',
      });
      const exit = new Promise<void>((resolve) => child.on('close', () => resolve()));
      // Stopped the moment its journal appears (the header is its first line; the batch records follow).
      await new Promise<void>((resolve) => {
        // The lock of the run is made first (docs/behaviour.md#ownership): the journal is the .jsonl file.
        const watcher = watch(journalDir, (_event, name) => {
          if (!String(name).endsWith('.jsonl')) return;
          child.kill('SIGSTOP');
          watcher.close();
          resolve();
        });
      });
      // Let it write a little at a time until its header and some of its batch records are on disk. Each look
      // is taken while it is stopped, and a stopped process writes nothing more before SIGKILL ends it: what
      // the last look saw is what the kill leaves, so the plan is known to be cut short, not hoped to be.
      const journal = journalIn(journalDir);
      const linesNow = () => readFileSync(journal, 'utf8').split('\n').length - 1;
      for (let step = 0; linesNow() < 2; step++) {
        expect(step, 'the send wrote no batch record in 2,000 short runs').toBeLessThan(2000);
        child.kill('SIGCONT');
        await new Promise((resolve) => setTimeout(resolve, 2));
        child.kill('SIGSTOP');
      }
      // The header and BIG batch records make a whole plan; fewer lines, seen while stopped, are a plan cut short.
      expect(linesNow(), 'the plan was already whole when the send was stopped').toBeLessThan(1 + BIG);
      child.kill('SIGKILL');
      await exit;
      const run = readJournal(readFileSync(journal, 'utf8'));
      expect(run.incomplete).toBeDefined();
      expect(delivered(served.record).size).toBe(0);
      const listed = await runCli(['runs', '--json'], { env: env(journalDir), cwd: dir });
      expect((JSON.parse(listed.stdout) as { runs: { state: string; incomplete?: string }[] }).runs[0]).toMatchObject({ state: 'incomplete', incomplete: expect.stringContaining(`declared ${BIG} recipients`) });
      const shown = await runCli(['runs', 'show', journal], { env: env(journalDir), cwd: dir });
      expect(shown.stdout).toContain('incomplete');
      expect(shown.stdout).toContain('send again from the original input');
      expect(shown.stdout).not.toContain('pushctl resend');
      const resend = await runCli(['resend', journal], { env: env(journalDir), cwd: dir });
      expect(resend.code).toBe(2);
      expect(resend.stderr).toContain('cannot be a resend source');
      expect(resend.stderr).toContain('batch records missing');
      const asInput = await runCli(['send', '--base-url', served.url, '--app-id', 'app', '--title', 'x', '--client-ids-file', journal], { env: env(journalDir), cwd: dir });
      expect(asInput.code).toBe(2);
      expect(asInput.stderr).toContain('incomplete run journal');
      expect(delivered(served.record).size).toBe(0);
      trials.push({ name: 'plan', in_doubt: 0, duplicates: 0 });
    } finally {
      await served.stop();
    }
  }, 60_000);

  it('SIGKILL while a long input is still being read, batches already delivered: the resend needs the input again, then completes it once', async () => {
    const served = await serve('stream');
    const journalDir = join(dir, 'journal-stream');
    const input = Array.from({ length: 90_000 }, (_, i) => `s${String(i).padStart(6, '0')}`);
    // Read from stdin that the test holds open: the kill lands while the input is still being read.
    const child = spawn(process.execPath, [BIN, 'send', '--base-url', served.url, '--app-id', 'app', '--title', 'Kill test', '--client-ids-file', '-', '--concurrency', String(CONCURRENCY)], {
      cwd: dir,
      env: env(journalDir) as NodeJS.ProcessEnv,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.stdin!.on('error', () => {});
    const exit = new Promise<void>((resolve) => child.on('close', () => resolve()));
    try {
      child.stdin!.write(`${input.slice(0, 60_000).join('\n')}\n`);
      for (let polls = 0; readLines(served.record) < 3; polls++) {
        expect(polls, 'the emulator never got 3 batches').toBeLessThan(3000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await holdUntilOneInFlight(served, child);
      child.kill('SIGKILL');
      await exit;
      await recordCaughtUp(served);
      const journal = journalIn(journalDir);
      const run = readJournal(readFileSync(journal, 'utf8'));
      expect(run.incomplete?.reason).toContain('still being read');
      const planned = run.results.flatMap((r) => r.clientIds);
      expect(planned).toEqual(input.slice(0, planned.length));
      const unknown = new Set(run.results.filter((r) => r.status === 'in_doubt').flatMap((r) => r.clientIds));
      expect(unknown.size, 'the request in flight at the kill is in doubt').toBeGreaterThan(0);
      const before = delivered(served.record);
      for (const id of before.keys()) expect(run.results.some((r) => (r.status === 'accepted' || r.status === 'in_doubt') && r.clientIds.includes(id)), `${id} delivered but not accepted/in doubt`).toBe(true);

      // Without its input it is refused, naming the one command; with it, the rest goes out.
      const shown = JSON.parse((await runCli(['runs', 'show', journal, '--json'], { env: env(journalDir), cwd: dir })).stdout) as { run: { state: string; resend_command: string } };
      expect(shown.run).toMatchObject({ state: 'incomplete', resend_command: `pushctl resend ${journal} --client-ids-file - --base-url ${served.url} --app-id app` });
      const bare = await runCli(['resend', journal], { env: env(journalDir), cwd: dir });
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('--client-ids-file');
      await setChaos(served, 'off');
      const whole = `${input.join('\n')}\n`;
      const [, ...args] = shellWords(shown.run.resend_command);
      const again = await runCli([...args, ...RESEND_FLAGS], { env: env(journalDir), cwd: dir, input: whole });
      expect(again.code, again.stderr).toBe(0);
      expectOnceExceptInDoubt(input, unknown, before, delivered(served.record));
      const withUnknown = await runCli([...args, '--include-in-doubt', ...RESEND_FLAGS], { env: env(journalDir), cwd: dir, input: whole });
      expect(withUnknown.code, withUnknown.stderr).toBe(0);
      const duplicates = expectAtMostTwiceInDoubt(input, unknown, delivered(served.record));
      const last = await runCli([...args, '--json'], { env: env(journalDir), cwd: dir, input: whole });
      expect(JSON.parse(last.stdout)).toMatchObject({ would_send: false, not_sent: 0, in_doubt: 0 });
      trials.push({ name: 'stream', in_doubt: unknown.size, duplicates });
    } finally {
      child.kill('SIGKILL');
      await served.stop();
    }
  }, 90_000);

  it('SIGKILL near the end with a request in flight (its answer held): it reads in doubt, and the resends finish the run', async () => {
    const served = await serve('closing');
    const journalDir = join(dir, 'journal-closing');
    try {
      // Near the end: most batches delivered, the send stopped with room left for a batch never sent; the
      // kill lands with a request in flight (delivered, its answer held), whatever the machine's speed.
      const started = await sendUntil(served, journalDir, BATCHES - 10);
      const before = await holdUntilOneInFlight(served, started.child);
      expect(before, 'the send was stopped too near its end to leave a batch unsent').toBeLessThan(BATCHES - CONCURRENCY);
      started.child.kill('SIGKILL');
      await started.exit;
      const listed = await runCli(['runs', '--json'], { env: env(journalDir), cwd: dir });
      expect((JSON.parse(listed.stdout) as { runs: { state: string }[] }).runs.map((r) => r.state)).toEqual(['killed']);
      await checkRecovery(served, journalDir, 'closing', { inDoubt: true });
    } finally {
      await served.stop();
    }
  }, 60_000);

  const root = process.getuid?.() === 0;
  if (!root) console.log('journal-kill: skipping the full-disk trial: mounting a small tmpfs needs root');
  it.skipIf(!root)('a full disk mid-run (a small tmpfs): no request starts without its record, exit 2 naming the journal and ENOSPC, the report written, the resend completes', async () => {
    const served = await serve('enospc');
    const mountPoint = mkdtempSync(join(tmpdir(), 'pushctl-enospc-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
    const journalDir = join(mountPoint, 'runs');
    try {
      const { child, exit, stderr } = await sendUntil(served, journalDir, 8);
      child.kill('SIGSTOP');
      // Another process fills the disk while the send is stopped.
      const filler = join(mountPoint, 'filler');
      try {
        writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
      } catch {
        // ENOSPC once the disk is full: the point.
      }
      child.kill('SIGCONT');
      expect(await exit).toBe(2);
      expect(stderr()).toContain(journalIn(journalDir));
      expect(stderr()).toContain('ENOSPC');
      expect(stderr()).not.toContain('bug in pushctl');
      // No report nobody asked for (docs/behaviour.md#reports): the hint names the command that makes one.
      expect(stderr().split('\n').some((l) => l.startsWith('report: '))).toBe(false);
      expect(readdirSync(dir).filter((f) => f.startsWith('pushctl-report-'))).toEqual([]);
      expect(stderr()).toContain('pushctl runs show');
      // Nothing went out without its start record: every delivered ID is accepted or in doubt in the journal.
      const run = readJournal(readFileSync(journalIn(journalDir), 'utf8'));
      const recorded = new Set(run.results.filter((r) => r.status === 'accepted' || r.status === 'in_doubt').flatMap((r) => r.clientIds));
      for (const id of delivered(served.record).keys()) expect(recorded.has(id), `${id} went out without a record`).toBe(true);
      unlinkSync(filler);
      // The send stops at its first failed write: a request may or may not have been in flight.
      await checkRecovery(served, journalDir, 'enospc', { inDoubt: false });
    } finally {
      await served.stop();
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  }, 90_000);
});
