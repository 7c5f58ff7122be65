// A directory and its missing parents, made one level at a time. Node's mkdir({ recursive: true }) tries again
// for ever when a level answers ENOENT while its parent exists (any path under /proc): it spins a core, and the
// synchronous one lets no signal handler run, so `journal-dir: /proc/x` hung the step until the job's timeout,
// deaf to the cancel (`init --config /proc/x/c.json` too). Here such a level is an error the callers name.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Makes `dir` (and each missing parent) with `mode`; an existing directory is fine, anything else throws. */
export function makeDirs(dir: string, mode: number): void {
  try {
    makeOne(dir, mode);
  } catch (error) {
    const parent = dirname(dir);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw error;
    makeDirs(parent, mode);
    // Once, now that the parent is there: an ENOENT again is the file system's answer, thrown as it is.
    makeOne(dir, mode);
  }
}

function makeOne(dir: string, mode: number): void {
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) return;
    throw error;
  }
}
