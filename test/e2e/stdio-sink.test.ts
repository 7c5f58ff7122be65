// The CLI writes a pipe or a file without Node's stream objects (src/stdio-sink.ts). What a reader gets must
// be what it got from process.stdout: the same bytes to a file as to a pipe, and a reader that goes away
// early (`pushctl schema | head -1`) is no error of pushctl's.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, runProcess } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-stdio-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with its stdout and stderr going to files; resolves with the exit code and both files' text. */
function runToFiles(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const out = join(dir, `out-${args.join('-')}`);
  const err = join(dir, `err-${args.join('-')}`);
  const fds = [openSync(out, 'w'), openSync(err, 'w')] as const;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv() as NodeJS.ProcessEnv, cwd: dir, stdio: ['ignore', fds[0], fds[1]] });
    child.on('error', reject);
    child.on('close', (code) => {
      for (const fd of fds) closeSync(fd);
      resolve({ code, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') });
    });
  });
}

describe("the CLI's stdout and stderr", () => {
  it('write the same text to files as to pipes, each to its own', async () => {
    const piped = await runCli(['validate', '--title', 'Hi', '--all', '--json'], { cwd: dir });
    const filed = await runToFiles(['validate', '--title', 'Hi', '--all', '--json']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(filed).toEqual({ code: 0, stdout: piped.stdout, stderr: piped.stderr });
    expect(JSON.parse(filed.stdout)).toMatchObject({ ok: true, exit_code: 0 });

    const failedPipe = await runCli(['validate', '--title', 'Hi', '--country', 'uk'], { cwd: dir });
    const failedFile = await runToFiles(['validate', '--title', 'Hi', '--country', 'uk']);
    expect(failedPipe.code).toBe(3);
    expect(failedFile).toEqual({ code: 3, stdout: failedPipe.stdout, stderr: failedPipe.stderr });
    expect(failedFile.stderr).toContain('use GB');
  });

  it('say so, as an error with its exit code, when the file stdout goes to cannot take it (a full disk, a size limit)', async () => {
    // A file size limit (SIGXFSZ ignored, so the write fails with EFBIG as on a full disk): 4 blocks, which the
    // schema outgrows; none, for --json, whose envelope of the error cannot get there either. Not "internal
    // error … a bug in pushctl", and not a silent success either.
    const out = join(dir, 'limited.json');
    for (const [blocks, args] of [['4', 'schema'], ['0', 'validate --title Hi --all --json']]) {
      const r = await runProcess('/bin/sh', ['-c', `trap '' XFSZ; ulimit -f ${blocks!}; exec "${process.execPath}" "${BIN}" ${args!} > "${out}"`], { env: cleanEnv(), cwd: dir });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toMatch(/^error: could not write the output to stdout \(EFBIG: [^)]+\)$/m);
      expect(r.stderr).toMatch(/^hint: make room for it, or send it elsewhere$/m);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it.skipIf(!existsSync('/dev/full'))('say so too when stdout is a device that refuses the write (/dev/full), which Node writes through its own stream', async () => {
    // A character device that is no terminal keeps Node's stream, whose error comes on a later tick: the run
    // ended before it, exit 0, the output lost without a word.
    for (const args of ['schema', 'validate --title Hi --all']) {
      const r = await runProcess('/bin/sh', ['-c', `exec "${process.execPath}" "${BIN}" ${args} > /dev/full`], { env: cleanEnv(), cwd: dir });
      expect(r.code, `${args}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toMatch(/^error: could not write the output to stdout \(ENOSPC: [^)]+\)$/m);
      expect(r.stderr).toMatch(/^hint: make room for it, or send it elsewhere$/m);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it('end the run quietly when the reader of stdout has gone (EPIPE)', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'schema'], { env: cleanEnv() as NodeJS.ProcessEnv, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      // The reader goes before the CLI has started, so every write to stdout finds the pipe closed.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result).toEqual({ code: 0, stderr: '' });
  });

  it('deliver all the output to a non-blocking pipe that fills up, before the process ends', async () => {
    // A pipe another process made non-blocking (O_NONBLOCK on the shared file description) refuses a write
    // once full (EAGAIN); the CLI then queues the rest in Node's stream, and ending the process at once
    // (bin/pushctl.cjs) would drop it. Node sets its children's stdio blocking, so python3 hands the pipe
    // over and reads nothing until it is full: the CLI's next write is then sure to find it so.
    const ids = Array.from({ length: 6000 }, (_, i) => `client-${String(i).padStart(8, '0')}`);
    const message = join(dir, 'many-ids.json');
    writeFileSync(message, JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 2, client_ids: ids }, notification: { title: 'Hi' } }));
    const harness = [
      'import array, fcntl, os, subprocess, sys, termios, time',
      'r, w = os.pipe()',
      'fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)',
      'child = subprocess.Popen(sys.argv[1:], stdout=w, stdin=subprocess.DEVNULL)',
      'os.close(w)',
      'def queued():',
      "    n = array.array('i', [0]); fcntl.ioctl(r, termios.FIONREAD, n); return n[0]",
      'while queued() < 65536 and child.poll() is None: time.sleep(0.01)',
      'out = b""',
      'while True:',
      '    piece = os.read(r, 65536)',
      '    if not piece: break',
      '    out += piece',
      'sys.stdout.buffer.write(out)',
      'sys.exit(child.wait())',
    ].join('\n');
    const result = await runProcess('python3', ['-c', harness, process.execPath, BIN, 'validate', '-f', message, '--json'], { env: cleanEnv(), cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(65536);
    const document = JSON.parse(result.stdout) as { ok: boolean; body: { condition: { client_ids: string[] } } };
    expect(document.ok).toBe(true);
    expect(document.body.condition.client_ids).toEqual(ids);
  });
});
