import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import type { Ctx } from '../../../src/context.js';

/** A temporary home with a project inside it; the env points HOME and XDG_CONFIG_HOME into it. */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  env: Record<string, string | undefined>;
  write(relative: string, text: string | Buffer, mode?: number): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * A fresh sandbox for every test of the file that calls this at its top level: made before each test,
 * removed after it. The object returned stands for the current test's sandbox.
 */
export function useSandbox(): Sandbox {
  let current: Sandbox | undefined;
  beforeEach(async () => {
    current = await sandbox();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return new Proxy({} as Sandbox, {
    get: (_, key) => {
      if (!current) throw new Error('the sandbox exists only while a test runs');
      return Reflect.get(current, key);
    },
  });
}

export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'pushctl-settings-'));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  await mkdir(project, { recursive: true });
  return {
    root,
    home,
    project,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    async write(relative, text, mode = 0o644) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text, { mode });
      return file;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export interface TestCtx extends Ctx {
  out(): string;
  err(): string;
  stdinStream: PassThrough;
}

/** A Ctx that captures stdout and stderr; stdin is a PassThrough the test may fill. */
export function testCtx(options: {
  cwd: string;
  env: Record<string, string | undefined>;
  stdin?: string;
  tty?: boolean;
  /** Typed one at a time, each after a prompt (a stderr write ending in ": ") appears, as a person would. */
  answers?: string[];
}): TestCtx {
  let out = '';
  let err = '';
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (options.tty) stdin.isTTY = true;
  if (options.stdin !== undefined) stdin.end(options.stdin);
  const answers = [...(options.answers ?? [])];
  return {
    stdout: { write: (chunk: string) => (out += chunk), isTTY: options.tty },
    stderr: {
      write: (chunk: string) => {
        err += chunk;
        const answer = chunk.endsWith(': ') ? answers.shift() : undefined;
        if (answer !== undefined) setImmediate(() => stdin.write(`${answer}\n`));
        return true;
      },
      isTTY: options.tty,
    },
    stdin,
    stdinStream: stdin,
    env: options.env,
    cwd: options.cwd,
    interrupt: new AbortController().signal,
    out: () => out,
    err: () => err,
  };
}
