// The files `pushctl serve` reads at start (--apps, --devices, --tls-cert, --tls-key) as they may really be
// (docs/behaviour.md#trust): a FIFO no one writes kept serve waiting in a thread of the pool, deaf to Ctrl-C and
// SIGTERM alike (its handler ran, and the thread blocked in open(2) kept the process alive). The wait now
// ends with the first Ctrl-C. The signal is sent once the process has pushctl's handlers (its SigCgt in /proc
// says so), so what is tested is the wait, not a race with start-up. Linux only (/proc, mkfifo).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';

let work = '';
// A serve that does not hear the signal is killed with SIGKILL when the test gives up on it.
const children = scratchPerTest('pushctl-serve-special-', (dir) => (work = dir));

/**
 * Whether `pid` has pushctl's signal handlers: it catches SIGHUP (bit 0 of SigCgt), the last of the three it
 * handles. Not SIGINT: Node catches that one itself from the start, to restore the terminal.
 */
function hasHandlers(pid: number): boolean {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('SigCgt:'));
  return line !== undefined && (BigInt(`0x${line.split(/\s+/)[1]}`) & 1n) !== 0n;
}

describe.runIf(existsSync('/proc/self/status'))('serve reading a FIFO no one writes', () => {
  for (const flag of ['--apps', '--devices', '--tls-cert']) {
    it(`${flag}: the first Ctrl-C ends the wait, and nothing is served`, async () => {
      const fifo = join(work, 'waiting');
      execFileSync('mkfifo', [fifo]);
      const extra = flag === '--tls-cert' ? ['--tls-key', fifo] : [];
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', flag, fifo, ...extra], { env: cleanEnv() as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      while (!hasHandlers(child.pid!)) await new Promise((resolve) => setImmediate(resolve));
      child.kill('SIGINT');
      expect(await ended).toBe(130);
      expect(stdout).toBe('');
    });
  }
});
