// A journal directory's locks as a user may find them (docs/behaviour.md#ownership): a lock generation that is
// not a readable file — a directory, a FIFO, left there by hand or by another tool — is an owner that says
// nothing of itself, dead once its stale time is past. The built binary against `pushctl serve`; a process
// that spins on such a lock (deaf to SIGTERM in a synchronous loop) is killed when its test ends.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onceLockName } from '../../src/commands/shared/own-run.js';
import { STALE_MS } from '../../src/journal/ownership.js';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { deliveredCounts } from '../helpers/record-lines.js';

const SECRET = 'lockfile-secret-5d2e';
let dir: string;
let served: ServedCli;
let record: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-lockfiles-'));
  record = join(dir, 'record.jsonl');
  served = await serveCli(['--app', `app:${SECRET}`, '--record', record, '--rate', '0']);
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: readonly string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return runCli(args, { env, cwd: dir, onSpawn: (child) => children.push(child) });
}

/** How often the emulator delivered each of `ids`. */
function deliveries(ids: readonly string[]): number[] {
  const counts = deliveredCounts(record);
  return ids.map((id) => counts.get(id) ?? 0);
}

/** A lock generation planted as `kind`, last touched well past the stale time. */
function plant(locks: string, name: string, kind: 'directory' | 'fifo'): void {
  mkdirSync(locks, { recursive: true, mode: 0o700 });
  const path = join(locks, `${name}.1`);
  if (kind === 'directory') mkdirSync(path);
  else execFileSync('mkfifo', [path]);
  const old = new Date(Date.now() - STALE_MS - 60_000);
  utimesSync(path, old, old);
}

describe('a --once key whose lock generation is not a readable file', () => {
  for (const kind of ['directory', 'fifo'] as const) {
    it(`(a ${kind}, stale) is taken over: the send goes out once, exit 0`, async () => {
      const journals = join(dir, `${kind}-runs`);
      const ids = Array.from({ length: 5 }, (_, i) => `${kind}-${i}`);
      const file = join(dir, `${kind}.txt`);
      writeFileSync(file, `${ids.join('\n')}\n`);
      plant(join(journals, '.locks'), onceLockName(kind, 'app', served.url, false), kind);
      const env = cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals });
      const sent = await cli(['send', '--base-url', served.url, '--app-id', 'app', '--title', 'Locks', '--client-ids-file', file, '--once', kind], env);
      expect(sent.code, sent.stderr).toBe(0);
      expect(deliveries(ids)).toEqual(ids.map(() => 1));
    }, 30_000);
  }
});

describe('a journal directory where no lock can be made', () => {
  // The directory is below a regular file (ENOTDIR): no lock, so nothing is sent. The way out named is one
  // the command takes: --no-journal keeps a plain send from needing one, never --once (which needs the
  // journal) nor a resend (which owns its run's family with or without a journal of its own).
  it('names --no-journal as the way out only where it is one', async () => {
    const base = join(dir, 'unwritable');
    mkdirSync(base);
    writeFileSync(join(base, 'a-file'), '');
    const file = join(base, 'ids.txt');
    writeFileSync(file, 'u-1\nu-2\n');
    const good = cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: join(base, 'runs') });
    const bad = { ...good, PUSHCTL_JOURNAL_DIR: join(base, 'a-file', 'runs') };
    const send = ['send', '--base-url', served.url, '--app-id', 'app', '--title', 'Unwritable', '--client-ids-file', file];
    const first = await cli([...send, '--json'], good);
    expect(first.code, first.stderr).toBe(0);
    const runId = (JSON.parse(first.stdout) as { run_id: string }).run_id;

    const plain = await cli(send, bad);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('cannot write the lock');
    expect(plain.stderr).toContain('--no-journal');
    for (const args of [
      [...send, '--once', 'unwritable'],
      ['resend', join(base, 'runs', `${runId}.jsonl`), '--base-url', served.url, '--no-journal'],
    ]) {
      const refused = await cli(args, bad);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain('cannot write the lock');
      expect(refused.stderr, args.join(' ')).not.toContain('--no-journal');
      expect(refused.stderr).toContain('PUSHCTL_JOURNAL_DIR');
    }
    expect(deliveries(['u-1', 'u-2'])).toEqual([1, 1]);
  }, 30_000);
});
