// Runs the built CLI (bin/pushctl.cjs → dist/) as a user would, and captures what it prints.
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
}

/** Run journals of this test process go here, never into the real ~/.local/state. */
export const STATE_HOME = mkdtempSync(join(tmpdir(), 'pushctl-state-'));

/** An environment with no PUSHCTL_* settings and no colour, so tests never depend on the machine's. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PUSHCTL_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, NO_COLOR: '1', XDG_STATE_HOME: STATE_HOME, ...extra };
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: (options.env ?? cleanEnv()) as NodeJS.ProcessEnv,
      cwd: options.cwd ?? FIXTURES,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(options.input ?? '');
    options.onSpawn?.(child);
  });
}
