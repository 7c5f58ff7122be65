// Inputs have sizes (docs/behaviour.md#trust; issue 32 rows 9, 10 and 13): a message, data or secret input is read up
// to its cap and refused beyond it however it arrives; a FIFO nobody writes to is a wait that Ctrl-C ends;
// a directory is an input error, never "a bug in pushctl".
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const MESSAGE_CAP = 4 * 1024 * 1024;
const SECRET_CAP = 64 * 1024;
/** What a reader may take past its cap: one read of its stream plus what the pipe holds. */
const SLACK = 2 * 1024 * 1024;
const NO_SERVICE = ['--base-url', 'http://127.0.0.1:9', '--app-id', 'a', '--all', '--title', 'x'];

let dir: string;
const started: ChildProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-caps-'));
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') });
const cli = (args: string[]) => runCli(args, { env: env(), cwd: dir });

describe('a directory given as an input file', () => {
  it.each([
    ['--client-ids-file', ['validate', '--title', 'x', '--client-ids-file', '/tmp'], 3],
    ['-f', ['validate', '-f', '/tmp'], 3],
    ['--data-file', ['validate', '--all', '--title', 'x', '--data-file', '/tmp'], 3],
    ['--app-secret-file', ['send', ...NO_SERVICE, '--app-secret-file', '/tmp'], 6],
  ])('%s /tmp: an input error with its exit code, never a bug', async (_flag, args, code) => {
    const r = await cli(args as string[]);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain('/tmp');
    expect(r.stderr).toContain('is a directory');
    expect(r.stderr).not.toContain('internal error');
  });
});

describe.runIf(existsSync('/dev/zero'))('/dev/zero given as an input file', () => {
  it.each([
    ['-f', ['validate', '-f', '/dev/zero'], 3, 'larger than 4 MiB'],
    ['--data-file', ['validate', '--all', '--title', 'x', '--data-file', '/dev/zero'], 3, 'larger than 4 MiB'],
    ['--app-secret-file', ['send', ...NO_SERVICE, '--app-secret-file', '/dev/zero'], 6, 'more than 64 KiB'],
    // No size cap for a list of IDs (millions are normal), but no line of it is 64 KiB long.
    ['--client-ids-file', ['validate', '--title', 'x', '--client-ids-file', '/dev/zero'], 3, 'longer than 65536 bytes'],
  ])('%s /dev/zero: refused at the cap', async (_flag, args, code, words) => {
    const r = await cli(args as string[]);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(words);
  });
});

/**
 * Runs the CLI with a stdin that never ends (as `yes | pushctl …`), writing as fast as it reads; resolves
 * with how it ended and how many bytes it took before it let go of the pipe.
 */
function endlessStdin(args: string[]): Promise<{ code: number | null; stderr: string; written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env() as NodeJS.ProcessEnv, cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
    started.push(child);
    const chunk = Buffer.alloc(64 * 1024, 'y\n');
    let written = 0;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const pump = () => {
      while (!child.stdin.destroyed && child.exitCode === null) {
        written += chunk.length;
        if (!child.stdin.write(chunk)) return void child.stdin.once('drain', pump);
      }
    };
    // EPIPE once the CLI has closed its end: what it was meant to do.
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, written: written - child.stdin.writableLength }));
    pump();
  });
}

describe('an endless pipe on stdin', () => {
  it.each([
    ['-f -', ['validate', '-f', '-'], 3, MESSAGE_CAP, 'message file from stdin is larger than 4 MiB'],
    ['--data-file -', ['validate', '--all', '--title', 'x', '--data-file', '-'], 3, MESSAGE_CAP, 'data file from stdin is larger than 4 MiB'],
    ['--app-secret-stdin', ['send', ...NO_SERVICE, '--app-secret-stdin'], 6, SECRET_CAP, 'more than 64 KiB'],
  ])('%s: refused once past its cap, without reading much more', async (_what, args, code, cap, words) => {
    const r = await endlessStdin(args as string[]);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toContain(words);
    expect(r.written).toBeGreaterThan(cap);
    expect(r.written).toBeLessThan(cap + SLACK);
  });
});

/** Whether process `pid` has `path` open, or one of its threads waits in open(2) on a FIFO (as before the fix). */
function waitsOn(pid: number, path: string): boolean {
  try {
    if (readdirSync(`/proc/${pid}/fd`).some((fd) => safeReadlink(`/proc/${pid}/fd/${fd}`) === path)) return true;
    return readdirSync(`/proc/${pid}/task`).some((task) => safeRead(`/proc/${pid}/task/${task}/wchan`).includes('fifo_open'));
  } catch {
    return false;
  }
}
const safeReadlink = (link: string) => {
  try {
    return readlinkSync(link);
  } catch {
    return '';
  }
};
const safeRead = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.runIf(process.platform === 'linux' && existsSync('/proc/self/fd'))('a FIFO nobody writes to', () => {
  it.each([
    ['-f', (fifo: string) => ['validate', '-f', fifo]],
    ['--data-file', (fifo: string) => ['validate', '--all', '--title', 'x', '--data-file', fifo]],
    ['--client-ids-file', (fifo: string) => ['validate', '--title', 'x', '--client-ids-file', fifo]],
    ['--client-ids-file (send)', (fifo: string) => ['send', '--base-url', 'http://127.0.0.1:9', '--app-id', 'a', '--title', 'x', '--client-ids-file', fifo]],
    ['--app-secret-file', (fifo: string) => ['send', ...NO_SERVICE, '--app-secret-file', fifo]],
  ])('%s: SIGINT ends the wait, exit 130', async (what, args) => {
    const fifo = join(dir, `${what.replace(/\W+/g, '-')}.fifo`);
    execFileSync('mkfifo', [fifo]);
    let child: ChildProcess | undefined;
    const result = runCli(args(fifo), { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: undefined }), cwd: dir, onSpawn: (c) => started.push((child = c)) });
    await until(() => waitsOn(child!.pid!, fifo));
    child!.kill('SIGINT');
    const r = await result;
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted while waiting for the');
  });
});

describe.runIf(existsSync('/dev/zero'))('the action in mode validate', () => {
  it('a message file linked to /dev/zero is refused by the same cap (exit 3)', async () => {
    const work = mkdtempSync(join(dir, 'action-'));
    symlinkSync('/dev/zero', join(work, 'msg.json'));
    writeFileSync(join(work, 'out'), '');
    writeFileSync(join(work, 'summary'), '');
    const actionEnv = cleanEnv({ HOME: work, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work, GITHUB_OUTPUT: join(work, 'out'), GITHUB_STEP_SUMMARY: join(work, 'summary'), INPUT_FILE: 'msg.json', INPUT_MODE: 'validate' });
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [ACTION], { cwd: work, env: actionEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      started.push(child);
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(r.code, r.out).toBe(3);
    expect(r.out).toContain('larger than 4 MiB');
    expect(parseOutputFile(readFileSync(join(work, 'out'), 'utf8'))['exit-code']).toBe('3');
  });
});
