// A message file or secret file may be a pipe whose writer is slow (`-f <(make-message)`,
// `--app-secret-file <(vault read …)`). While pushctl waits for it, it must still answer signals, as a CI
// job's cancel sends them: reading such a file must not block the process, and Ctrl-C ends the wait
// (docs/behaviour.md#trust): nothing was sent, exit 130. (A pipe is read by the event loop, never by a thread of the
// pool: libuv joins its threads at exit, so one waiting for a writer would keep the process alive.)
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
const started: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-fifo-'));
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The pipe's write end, opened without waiting: the open succeeds only once a reader has opened the pipe
 * (POSIX: ENXIO while there is none), i.e. once the CLI has started waiting for it.
 */
function writerOnceRead(fifo: string): number | undefined {
  try {
    return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') return undefined;
    throw error;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.runIf(process.platform === 'linux')('a file that is a pipe whose writer is slow', () => {
  it.each([
    ['message file', (fifo: string) => ['validate', '-f', fifo], JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }), 130],
    // Interrupted before anything was sent: the send stops there (exit 130, docs/behaviour.md#exit-codes).
    ['secret file', (fifo: string) => ['send', '--base-url', 'http://127.0.0.1:9', '--app-id', 'a', '--all', '--title', 'x', '--app-secret-file', fifo], 'a-secret\n', 130],
  ])('%s: the CLI answers SIGINT while it waits, and the wait ends there', async (what, args, content, exitCode) => {
    const fifo = join(dir, `${what.replace(' ', '-')}.fifo`);
    execFileSync('mkfifo', [fifo]);
    let stderr = '';
    const result = runCli(args(fifo), {
      env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }),
      cwd: dir,
      onSpawn: (child) => {
        started.push(child);
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      },
    });
    const child = started.at(-1)!;
    let writer: number | undefined;
    await until(() => (writer = writerOnceRead(fifo)) !== undefined);
    // The pipe is open at both ends and gives nothing yet: the writer is slow.
    child.kill('SIGINT');
    // A process blocked in a synchronous read would print this only once the pipe had given everything.
    await until(() => stderr.includes('SIGINT: stopping:'));
    // The writer comes late: the CLI may have gone already (EPIPE), which is what SIGINT asked for.
    try {
      writeSync(writer!, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    }
    closeSync(writer!);
    const r = await result;
    expect(r.code, r.stderr).toBe(exitCode);
  });
});
