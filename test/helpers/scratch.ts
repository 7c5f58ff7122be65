// A fresh directory for each test of a file, and the children a test started: those still running when it
// ends are killed with SIGKILL (a child the test gave up on may be one that hears no SIGTERM).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Registers the hooks; `use` gets each test's directory. Push what a test spawns onto the array returned. */
export function scratchPerTest(prefix: string, use: (dir: string) => void): ChildProcess[] {
  const children: ChildProcess[] = [];
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    use(dir);
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return children;
}
