// A journal directory others can change proves nothing (docs/behaviour.md#ownership, #trust): in a directory
// writable by other users without the sticky bit, or a lock directory another user made, anyone can remove a
// run's journal (a --once re-run then sends again) or its lock (a second process then sends the same
// recipients). pushctl refuses to own a run there, naming the directory and the fix, and sends nothing.
// The built binary against the emulator on loopback; the lock directory of another user needs root.
import { chmodSync, chownSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';

const SECRET = 'dir-trust-S3CR3T-8b0e';
const NOBODY = (() => {
  const entry = readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('nobody:'));
  return entry ? { uid: Number(entry.split(':')[2]), gid: Number(entry.split(':')[3]) } : undefined;
})();
const AS_ROOT = process.getuid?.() === 0 && NOBODY !== undefined;
const bench = journalBench('pushctl-dir-trust-', SECRET);

const send = (journals: string, extra: string[] = []): Promise<CliResult> =>
  bench.cli(['send', '--title', 'Shared', '--client-id', 'a', '--base-url', bench.emulator.url, '--app-id', 'app', ...extra], { env: { PUSHCTL_JOURNAL_DIR: journals } });

/** A directory in the test's own, of `mode` (set after mkdir, which the umask trims). */
function dirOf(name: string, mode: number): string {
  const dir = join(bench.work, name);
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
}

describe('a journal directory other users can change', () => {
  for (const extra of [['--once', 'shared-1'], []]) {
    it(`mode 0777 without the sticky bit: send ${extra.join(' ')} refuses, naming it and the fix, and sends nothing`, async () => {
      const journals = dirOf('journals', 0o777);
      const before = bench.emulator.messages('app').length;
      const r = await send(journals, extra);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the journal directory ${journals} can be changed by other users (mode 777, no sticky bit)`);
      expect(r.stderr).toContain(`chmod go-w ${journals}`);
      expect(bench.emulator.messages('app').length).toBe(before);
    });
  }

  it('mode 1777 (the sticky bit, as /tmp): no one can remove another\'s files, so it is used', async () => {
    const r = await send(dirOf('journals', 0o1777), ['--once', 'sticky-1']);
    expect(r.code, r.stderr).toBe(0);
  });

  it.runIf(AS_ROOT)('a lock directory another user made in it: refused, naming it and its owner', async () => {
    const journals = dirOf('journals', 0o1777);
    const locks = join(journals, '.locks');
    mkdirSync(locks);
    chmodSync(locks, 0o777);
    chownSync(locks, NOBODY!.uid, NOBODY!.gid);
    const before = bench.emulator.messages('app').length;
    const r = await send(journals, ['--once', 'shared-2']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the lock directory ${locks} is owned by nobody`);
    expect(bench.emulator.messages('app').length).toBe(before);
  });
});
