// One owner per run (docs/behaviour.md#ownership), raced for real: the built binary, several processes at
// once, against `pushctl serve` answering after 200-300 ms, counting on the emulator's side how often each
// client ID was delivered. Every trial runs TRIALS times; the table of what was seen is printed at the end.
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { BIN, cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli } from '../helpers/serve-cli.js';
import { deliveredCounts } from '../helpers/record-lines.js';

const SECRET = 'owner-secret-81c4';
const TRIALS = 10;
const TOTAL = 2000;
let dir: string;
let served: { url: string; record: string; stop: () => Promise<void> };
const table: { trial: string; runs: number; duplicates: number; inDoubt: number }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-owner-'));
  const record = join(dir, 'record.jsonl');
  const { url, stop } = await serveCli(['--app', `app:${SECRET}`, '--record', record, '--rate', '0', '--chaos', 'latency=200-300ms', '--chaos-seed', '3']);
  served = { url, record, stop };
});

afterAll(async () => {
  await served?.stop();
  console.log(['| trial | runs | duplicates | in doubt |', '|---|---|---|---|', ...table.map((t) => `| ${t.trial} | ${t.runs} | ${t.duplicates} | ${t.inDoubt} |`)].join('\n'));
  rmSync(dir, { recursive: true, force: true });
});

/** A trial's own IDs, file and journal directory. */
function trialSetup(name: string): { ids: string[]; file: string; journals: string; env: Record<string, string | undefined> } {
  const ids = Array.from({ length: TOTAL }, (_, i) => `${name}-${i}`);
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, `${ids.join('\n')}\n`);
  const journals = join(dir, `${name}-runs`);
  return { ids, file, journals, env: cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals }) };
}

/** How often the emulator delivered each of `ids`. */
function deliveries(ids: readonly string[]): number[] {
  const counts = deliveredCounts(served.record);
  return ids.map((id) => counts.get(id) ?? 0);
}

/** The IDs a journal directory's runs left in doubt (an attempt started, its answer never recorded). */
function inDoubtIn(journals: string): Set<string> {
  const doubt = new Set<string>();
  for (const name of readdirSync(journals).filter((f) => f.endsWith('.jsonl'))) {
    for (const r of readJournal(readFileSync(join(journals, name), 'utf8')).results) if (r.status === 'in_doubt') for (const id of r.clientIds) doubt.add(id);
  }
  return doubt;
}

/** Every ID delivered exactly once, but those in doubt, which are delivered at most once (never sent again). */
function expectExactlyOnce(name: string, runs: number, ids: readonly string[], inDoubt: ReadonlySet<string> = new Set()): void {
  const counts = deliveries(ids);
  const duplicates = counts.filter((n) => n > 1).length;
  table.push({ trial: name, runs, duplicates, inDoubt: inDoubt.size });
  expect(duplicates, `${name}: IDs delivered more than once`).toBe(0);
  ids.forEach((id, i) => {
    if (!inDoubt.has(id)) expect(counts[i], `${name}: ${id}`).toBe(1);
  });
}

function start(args: readonly string[], env: Record<string, string | undefined>): { child: ChildProcess; done: Promise<CliResult> } {
  let child!: ChildProcess;
  const done = runCli(args, { env, cwd: dir, onSpawn: (c) => (child = c) });
  return { child, done };
}

/** Resolves once the emulator has delivered at least one batch of `ids`. */
async function firstBatchOf(ids: readonly string[]): Promise<void> {
  for (let i = 0; i < 1000 && deliveries(ids).every((n) => n === 0); i++) await new Promise((r) => setTimeout(r, 20));
}

/**
 * The id of the run whose journal appears in `journals`. With `writer` (the process expected to write it), waits
 * as long as that process lives, however loaded the machine, and fails with its own words if it ends first.
 */
async function journalOf(journals: string, writer?: Promise<CliResult>): Promise<string> {
  let ended: CliResult | undefined;
  void writer?.then((r) => (ended = r));
  for (let i = 0; writer !== undefined || i < 2000; i++) {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(journals, { withFileTypes: true });
    } catch {
      // Not made yet.
    }
    const file = entries.find((f) => f.isFile() && f.name.endsWith('.jsonl'));
    if (file) return file.name.slice(0, -'.jsonl'.length);
    if (ended) throw new Error(`the process to write a journal in ${journals} ended (exit ${ended.code}) without one: ${ended.stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no journal appeared in ${journals}`);
}

const sendArgs = (file: string, extra: string[] = []) => ['send', '--base-url', served.url, '--app-id', 'app', '--title', 'Owner', '--client-ids-file', file, '--batch-size', '200', ...extra];

describe('one --once key, several processes at once', () => {
  for (const n of [2, 4, 8]) {
    it(`${n} processes: one sends, the others wait and skip; every ID delivered once (${TRIALS} trials)`, async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const name = `once${n}-${trial}`;
        const { ids, file, env } = trialSetup(name);
        const results = await Promise.all(Array.from({ length: n }, () => runCli(sendArgs(file, ['--once', name]), { env, cwd: dir })));
        for (const r of results) expect(r.code, r.stderr).toBe(0);
        expect(results.filter((r) => r.stderr.includes('already done'))).toHaveLength(n - 1);
        expectExactlyOnce(name, n, ids);
      }
    }, 240_000);
  }

  it('--no-wait refuses at once, naming the owner run and pid (exit 2)', async () => {
    const { file, env, journals } = trialSetup('nowait');
    const owner = start(sendArgs(file, ['--once', 'nowait', '--rate', '2']), env);
    const runId = await journalOf(journals, owner.done);
    const refused = await runCli(sendArgs(file, ['--once', 'nowait', '--no-wait']), { env, cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--once nowait is being sent by run ${runId} (pid ${owner.child.pid}`);
    expect((await owner.done).code).toBe(0);
  }, 60_000);
});

describe('resends of one run', () => {
  for (const n of [2, 4]) {
    it(`${n} concurrent resends of a killed run: what it left goes out once (${TRIALS} trials)`, async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const name = `resend${n}-${trial}`;
        const { ids, file, env, journals } = trialSetup(name);
        const first = start(sendArgs(file, ['--rate', '10']), env);
        await firstBatchOf(ids);
        first.child.kill('SIGKILL');
        await first.done;
        const runId = await journalOf(journals);
        const results = await Promise.all(Array.from({ length: n }, () => runCli(['resend', runId, '--base-url', served.url], { env, cwd: dir })));
        for (const r of results) expect(r.code, r.stderr).toBe(0);
        if (trial === 0) {
          // The list says the killed run was resent, and leaves what is left to its resend's line.
          const listed = JSON.parse((await runCli(['runs', '--json'], { env, cwd: dir })).stdout) as { runs: { run_id: string; parent?: string; resent_by?: string[] }[] };
          const resends = listed.runs.filter((r) => r.parent === runId).map((r) => r.run_id);
          expect(resends.length).toBeGreaterThan(0);
          expect(listed.runs.find((r) => r.run_id === runId)?.resent_by).toEqual(resends.sort());
          const table = (await runCli(['runs'], { env, cwd: dir })).stdout;
          expect(table.split('\n').find((line) => line.startsWith(runId))).toMatch(/ killed, resent +\d+\/2000 +- /);
        }
        expectExactlyOnce(name, n + 1, ids, inDoubtIn(journals));
      }
    }, 240_000);
  }

  it(`a resend started while its run still sends waits for it, then finds nothing left (${TRIALS} trials)`, async () => {
    // Slow enough (2 s) that the resend, started once the journal appears, finds the run still sending.
    for (let trial = 0; trial < TRIALS; trial++) expect((await resendWhileSending(`during-${trial}`, 5)).stderr).toContain('nothing left to send');
  }, 240_000);
});

/** A run of ten batches at `rate` a second, and its resend started once its journal appears: the resend waits, and every ID goes out once. */
async function resendWhileSending(name: string, rate: number): Promise<CliResult> {
  const { ids, file, env, journals } = trialSetup(name);
  const first = start(sendArgs(file, ['--rate', String(rate)]), env);
  const runId = await journalOf(journals, first.done);
  const resend = await runCli(['resend', runId, '--base-url', served.url], { env, cwd: dir });
  expect(resend.code, resend.stderr).toBe(0);
  expect((await first.done).code).toBe(0);
  expect(resend.stderr).toContain(`waiting for run ${runId}`);
  expectExactlyOnce(name, 2, ids);
  return resend;
}

describe('a process that waits', () => {
  it('waits as long as the owner sends without piling up listeners: no warning of Node on its stderr', async () => {
    // Ten batches at 3 a second: the resend polls the lock well over the 10 listeners Node warns at.
    const resend = await resendWhileSending('long-wait', 3);
    expect(resend.stderr).not.toContain('MaxListenersExceededWarning');
    expect(resend.stderr).not.toMatch(/\(node:\d+\)/);
  }, 60_000);
});

describe('an owner that dies', () => {
  it(`SIGKILLed while three others wait: one takes over and resumes; in-doubt IDs are never sent again (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const name = `killed-${trial}`;
      const { ids, file, env, journals } = trialSetup(name);
      // Three batches a second: the kill lands while most of the ten are still to start, even when this process
      // sees the first delivery late on a loaded machine (at ten a second, all could start before it did).
      const args = sendArgs(file, ['--once', name, '--rate', '3']);
      const owner = start(args, env);
      const runId = await journalOf(journals, owner.done);
      const waiters = [start(args, env), start(args, env), start(args, env)];
      await firstBatchOf(ids);
      owner.child.kill('SIGKILL');
      await owner.done;
      const results = await Promise.all(waiters.map((w) => w.done));
      // Every waiter answers for the key alike: partly sent (7) when the kill left requests in doubt, else done.
      const keyCode = inDoubtIn(journals).size > 0 ? 7 : 0;
      for (const r of results) expect(r.code, r.stderr).toBe(keyCode);
      const said = results.map((r) => r.stderr).join('\n----\n');
      expect(results.filter((r) => r.stderr.includes(`resuming run ${runId}`)), said).toHaveLength(1);
      expect(results.filter((r) => r.stderr.includes(keyCode === 0 ? 'already done' : 'already ran, not in full (exit 7)')), said).toHaveLength(2);
      expectExactlyOnce(name, 4, ids, inDoubtIn(journals));
    }
  }, 300_000);

  it('SIGKILLed under a parent that never reaps it (a container whose PID 1 is no init): a zombie is killed, its key free at once', async () => {
    const name = 'zombie';
    const { ids, file, env, journals } = trialSetup(name);
    const args = sendArgs(file, ['--once', name, '--rate', '3']);
    // `sleep` takes the shell's place and never waits for its child: the killed send stays a zombie.
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const parent = spawn('sh', ['-c', `${quoted} >/dev/null 2>&1 & echo $!; exec sleep 120`], { env: env as NodeJS.ProcessEnv, cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
      const runId = await journalOf(journals);
      await firstBatchOf(ids);
      process.kill(pid, 'SIGKILL');
      while (!readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z ')) await new Promise((r) => setTimeout(r, 10));
      const listed = JSON.parse((await runCli(['runs', '--json'], { env, cwd: dir })).stdout) as { runs: { run_id: string; state: string }[] };
      expect(listed.runs.find((r) => r.run_id === runId)?.state).toBe('killed');
      // --no-wait: a zombie holding the key would be refused here, and waited for forever without it.
      const again = await runCli([...args, '--no-wait'], { env, cwd: dir });
      expect(again.code, again.stderr).toBe(inDoubtIn(journals).size > 0 ? 7 : 0);
      expect(again.stderr).toContain(`resuming run ${runId}`);
      expectExactlyOnce(name, 2, ids, inDoubtIn(journals));
    } finally {
      parent.kill('SIGKILL');
    }
  }, 120_000);

  it(`an owner whose pid now belongs to another process is taken over at once (${TRIALS} trials)`, async () => {
    const pidns = execFileSync('readlink', ['/proc/self/ns/pid'], { encoding: 'utf8' }).trim();
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    for (let trial = 0; trial < TRIALS; trial++) {
      const name = `reused-${trial}`;
      const { ids, env, journals } = trialSetup(name);
      // A killed run: its plan and its first batch's start, its family lock still fresh, and its pid now a
      // live process (this test's) that started at another time.
      const runId = `20261124-1200${String(trial).padStart(2, '0')}-beef`;
      const header = { t: 'header', format: 'pushctl-journal', v: 1, run_id: runId, started_at: '2026-11-24T12:00:00.000Z', version: 'x', pid: process.pid, pid_start: 1, app_id: 'app', host: new URL(served.url).host, base_url: served.url, dry_run: false, argv: [], message: { type: 1, time_to_live: 86400, condition: { type: 2 }, notification: { title: 'Owner' } }, recipients: TOTAL, batches: 10, lock: `run-${runId}` };
      const batches = Array.from({ length: 10 }, (_, b) => JSON.stringify({ t: 'batch', b, ids: ids.slice(b * 200, b * 200 + 200) }));
      mkdirSync(join(journals, '.locks'), { recursive: true, mode: 0o700 });
      writeFileSync(join(journals, `${runId}.jsonl`), `${[JSON.stringify(header), ...batches].join('\n')}\n`, { mode: 0o600 });
      const lock = join(journals, '.locks', `run-${runId}.1`);
      writeFileSync(lock, JSON.stringify({ run_id: runId, pid: process.pid, pid_start: 1, pidns, boot, host: hostname() }));
      utimesSync(lock, new Date(), new Date());
      const listed = JSON.parse((await runCli(['runs', '--json'], { env, cwd: dir })).stdout) as { runs: { state: string }[] };
      expect(listed.runs[0]!.state).toBe('killed');
      const resend = await runCli(['resend', runId, '--base-url', served.url, '--no-wait'], { env, cwd: dir });
      expect(resend.code, resend.stderr).toBe(0);
      expectExactlyOnce(name, 1, ids);
    }
  }, 240_000);
});

/** Takes lock `name` over as another process would: a generation above the highest one there. */
function takeOver(journals: string, name: string): void {
  const locks = join(journals, '.locks');
  const highest = Math.max(...readdirSync(locks).filter((f) => f.startsWith(`${name}.`)).map((f) => Number(f.slice(name.length + 1))));
  writeFileSync(join(locks, `${name}.${highest + 1}`), JSON.stringify({ run_id: 'another', pid: process.pid, host: hostname() }));
}

describe('an owner whose lock is taken over', () => {
  // Ten batches at one a second: the owner's next refresh (every 2 s) sees the higher generation long before the last.
  it('send: no further request starts, and the run says who took it (exit 2)', async () => {
    const { ids, file, env, journals } = trialSetup('lost-send');
    const owner = start(sendArgs(file, ['--rate', '1']), env);
    const runId = await journalOf(journals, owner.done);
    await firstBatchOf(ids);
    takeOver(journals, `run-${runId}`);
    const r = await owner.done;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`another pushctl process took over run-${runId}`);
    expect(deliveries(ids).filter((n) => n === 0).length).toBeGreaterThan(0);
  }, 60_000);

  it('resend: the same, in the same words, with --json', async () => {
    const { ids, file, env, journals } = trialSetup('lost-resend');
    const first = start(sendArgs(file, ['--rate', '10']), env);
    await firstBatchOf(ids);
    first.child.kill('SIGKILL');
    await first.done;
    const runId = await journalOf(journals);
    const before = deliveries(ids).filter((n) => n > 0).length;
    const resend = start(['resend', runId, '--base-url', served.url, '--rate', '1', '--batch-size', '200', '--json'], env);
    // The resend's first batch out, then its lock taken.
    for (let i = 0; i < 1000 && deliveries(ids).filter((n) => n > 0).length === before; i++) await new Promise((r) => setTimeout(r, 20));
    takeOver(journals, `run-${runId}`);
    const r = await resend.done;
    expect(r.code, `${r.stderr}\n${r.stdout}\n${readdirSync(join(journals, '.locks')).join(' ')}`).toBe(2);
    const document = JSON.parse(r.stdout) as { ok: boolean; exit_code: number; error: { message: string } };
    expect(document.exit_code).toBe(2);
    expect(document.error.message).toContain(`another pushctl process took over run-${runId}`);
  }, 60_000);
});

/** How many attempts journal `runId` in `journals` has started (its `start` records). */
function startsIn(journals: string, runId: string): number {
  return readFileSync(join(journals, `${runId}.jsonl`), 'utf8').split('\n').filter((line) => line.includes('"t":"start"')).length;
}

describe('an owner stopped (SIGSTOP) past its stale time', () => {
  // One batch a second: when the owner is continued, its rate limiter's wait is long over as well as its
  // lock's refresh, and the next batch may start before the refresh sees the lock taken. The resend that took
  // over has sent what the journal said was not sent by then, so that request would reach its IDs twice.
  it('continued after a resend took its run over, it starts no further request: every ID once', async () => {
    const { ids, file, env, journals } = trialSetup('stopped-owner');
    const owner = start(sendArgs(file, ['--rate', '1']), env);
    const runId = await journalOf(journals, owner.done);
    for (let i = 0; i < 2000 && startsIn(journals, runId) < 3; i++) await new Promise((r) => setTimeout(r, 5));
    owner.child.kill('SIGSTOP');
    const stoppedAt = startsIn(journals, runId);
    // The resend waits until the stopped owner's lock is stale, then owns the run and sends what it left.
    const resend = await runCli(['resend', runId, '--base-url', served.url], { env, cwd: dir });
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stderr).toContain(`waiting for run ${runId}`);
    owner.child.kill('SIGCONT');
    const r = await owner.done;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`another pushctl process took over run-${runId}`);
    // Its journal says so: the batches it had started when stopped, and none after, left (or may have).
    const owned = readJournal(readFileSync(join(journals, `${runId}.jsonl`), 'utf8')).results;
    const left = owned.filter((b) => b.status !== 'not_sent');
    expect(left.length, 'batches the owner sent, counting those it started after it was continued').toBeLessThanOrEqual(stoppedAt);
    // Stopped between recording a start and reading its lock, the owner left that batch to its successor, which
    // read it as in doubt and left it too; continued, the owner recorded it as never sent. So far every other ID
    // is delivered once (or in doubt), and that batch's not at all; the family's next resend sends it once.
    const stoppedHere = new Set(owned.filter((b) => b.status === 'not_sent' && b.reason?.includes('took over')).flatMap((b) => b.clientIds));
    const inDoubt = inDoubtIn(journals);
    const counts = deliveries(ids);
    const unsent = ids.filter((id, i) => counts[i] === 0 && !inDoubt.has(id));
    expect(unsent.filter((id) => !stoppedHere.has(id)), 'IDs neither delivered, nor in doubt, nor left by the takeover').toEqual([]);
    expect(unsent.length, 'at most the one batch the owner had recorded as started when stopped').toBeLessThanOrEqual(200);
    expect(counts.filter((n) => n > 1)).toEqual([]);
    const last = await runCli(['resend', runId, '--base-url', served.url], { env, cwd: dir });
    expect(last.code, last.stderr).toBe(0);
    expectExactlyOnce('stopped-owner', 3, ids, inDoubtIn(journals));
  }, 60_000);
});

describe('a send whose client-ID input is the journal of a run still sending', () => {
  // The run's batches not started yet read as not sent in its journal, but its owner is about to send them:
  // taken as the input of another send, they would reach their IDs twice.
  it('is refused (exit 2) naming the run that owns it; every ID once', async () => {
    const { ids, file, env, journals } = trialSetup('input-running');
    const owner = start(sendArgs(file, ['--rate', '2']), env);
    const runId = await journalOf(journals, owner.done);
    await firstBatchOf(ids);
    const again = await runCli(['send', '--base-url', served.url, '--app-id', 'app', '--title', 'Owner', '--client-ids-file', join(journals, `${runId}.jsonl`)], { env, cwd: dir });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain(`run ${runId} is still being sent by run ${runId} (pid ${owner.child.pid}`);
    expect((await owner.done).code).toBe(0);
    expectExactlyOnce('input-running', 2, ids);
  }, 60_000);
});

describe('a run whose journal directory is not the one of the process that reads it', () => {
  // A cron job keeps its journals in its own directory (PUSHCTL_JOURNAL_DIR); a person resends one of them by
  // its path from a shell whose journal directory is the default. The run's lock is beside its journal.
  it('reads as running while it sends, and its resend by path waits for it: every ID once', async () => {
    const { ids, file, env, journals } = trialSetup('elsewhere');
    const owner = start(sendArgs(file, ['--rate', '2']), env);
    const runId = await journalOf(journals, owner.done);
    await firstBatchOf(ids);
    const shell = { ...env, PUSHCTL_JOURNAL_DIR: join(dir, 'elsewhere-shell-runs') };
    const path = join(journals, `${runId}.jsonl`);
    const shown = await runCli(['runs', 'show', path, '--json'], { env: shell, cwd: dir });
    expect((JSON.parse(shown.stdout) as { run: { state: string } }).run.state).toBe('running');
    const resend = await runCli(['resend', path, '--base-url', served.url], { env: shell, cwd: dir });
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stderr).toContain(`waiting for run ${runId}`);
    expect((await owner.done).code).toBe(0);
    expectExactlyOnce('elsewhere', 2, ids);
  }, 60_000);

  it('killed, then resent by its path from the shell: the cron job\'s own resend of it afterwards finds nothing left', async () => {
    const { ids, file, env, journals } = trialSetup('elsewhere-later');
    const first = start(sendArgs(file, ['--rate', '10']), env);
    await firstBatchOf(ids);
    first.child.kill('SIGKILL');
    await first.done;
    const runId = await journalOf(journals);
    const shell = { ...env, PUSHCTL_JOURNAL_DIR: join(dir, 'elsewhere-later-shell-runs') };
    const byPath = await runCli(['resend', join(journals, `${runId}.jsonl`), '--base-url', served.url], { env: shell, cwd: dir });
    expect(byPath.code, byPath.stderr).toBe(0);
    // The family stays in the run's directory, where the cron job's next look finds it whole.
    const again = await runCli(['resend', runId, '--base-url', served.url], { env, cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing left to send');
    expectExactlyOnce('elsewhere-later', 3, ids, inDoubtIn(journals));
  }, 60_000);
});

// A run in another PID namespace sharing the journal directory (a container with the same volume): its pid
// means nothing here, its refreshed lock says it is alive.
const canUnshare = (() => {
  try {
    execFileSync('unshare', ['--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!canUnshare) console.log('ownership: skipping the other-PID-namespace trial: unshare --pid is not permitted here');

describe.skipIf(!canUnshare)('an owner in another PID namespace', () => {
  it(`is running while it refreshes its lock: runs says so, resend --no-wait refuses, and nobody sends twice (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const name = `ns-${trial}`;
      const { ids, file, env, journals } = trialSetup(name);
      const inside = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, BIN, ...sendArgs(file, ['--rate', '2'])], { env: env as NodeJS.ProcessEnv, cwd: dir, stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => inside.on('close', (code) => resolve(code)));
      const runId = await journalOf(journals);
      await firstBatchOf(ids);
      const listed = JSON.parse((await runCli(['runs', '--json'], { env, cwd: dir })).stdout) as { runs: { run_id: string; state: string }[] };
      expect(listed.runs.find((r) => r.run_id === runId)?.state).toBe('running');
      const refused = await runCli(['resend', runId, '--base-url', served.url, '--no-wait'], { env, cwd: dir });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`is being sent by run ${runId}`);
      expect(await exited).toBe(0);
      expectExactlyOnce(name, 1, ids);
    }
  }, 240_000);
});
