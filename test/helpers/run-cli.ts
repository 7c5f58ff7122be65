// Runs a program as a user would, the built CLI (bin/pushctl.cjs → dist/) above all, and captures what it
// prints: the one spawn-and-capture helper of the tests.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/pushctl.cjs', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** Called once the process has started, e.g. to send it a signal later. */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
  /** Milliseconds before the child is sent SIGTERM (it then ends with that signal). */
  timeout?: number;
}

/** Run journals of this test process go here, never into the real ~/.local/state. */
export const STATE_HOME = mkdtempSync(join(tmpdir(), 'pushctl-state-'));

/** An environment with no PUSHCTL_* settings and no colour, so tests never depend on the machine's. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PUSHCTL_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, NO_COLOR: '1', XDG_STATE_HOME: STATE_HOME, ...extra };
}

/**
 * Runs a program without a shell and captures what it prints; resolves with how it ended, whatever that
 * was (rejects only when it could not start). Its stdin is a pipe that gets `input`, then ends.
 */
export function runProcess(file: string, args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: (options.env ?? process.env) as NodeJS.ProcessEnv,
      cwd: options.cwd ?? process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.timeout ? { timeout: options.timeout } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A child that never reads its stdin may exit before the write lands: that is not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    options.onSpawn?.(child);
  });
}

/** The built CLI, in the fixtures folder and a clean environment unless told otherwise. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return runProcess(process.execPath, [BIN, ...args], { ...options, env: options.env ?? cleanEnv(), cwd: options.cwd ?? FIXTURES });
}
