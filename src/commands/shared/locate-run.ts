// A run as the user names it: a run id (or its start) from `pushctl runs`, or a journal file's path.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { usageError } from '../../errors.js';
import { journalHeader, listRunFiles, runsDir, type RunFile } from '../../journal/runs-dir.js';

/**
 * A run id in the runs directory, or a journal file's path; `ref` is how a command should name it again
 * (the id when the runs directory has it, else the path).
 */
export function locateRun(run: string, ctx: Pick<Ctx, 'cwd' | 'env'>): { path: string; ref: string } {
  // Every run id starts with "", and "" resolves to the working directory: a blank name is no run at all.
  if (run.trim() === '') throw usageError('the run to read is empty', 'give a run id from `pushctl runs`, or the path of a journal file');
  const dir = runsDir(ctx.env);
  const byId = oneFamily(listRunFiles(dir, run));
  if (byId.length === 1 && !run.includes('/')) return { path: byId[0]!.path, ref: byId[0]!.id };
  const asPath = resolve(ctx.cwd, run);
  if (existsSync(asPath)) return { path: asPath, ref: asPath };
  if (byId.length > 1) throw usageError(`"${run}" matches ${byId.length} runs: ${named(byId.map((file) => file.id))}`, 'give more of the run id (see `pushctl runs`)');
  throw usageError(`no run "${run}" in ${dir}, and no such file`, 'list the runs with `pushctl runs`, or give the path of a journal file');
}

/** The first few ids, newest first by the start second that begins each (within one second, by its suffix). */
function named(ids: string[]): string {
  const newest = [...ids].sort().reverse();
  const shown = newest.slice(0, NAMED);
  return `${shown.join(', ')}${newest.length > NAMED ? `, and ${newest.length - NAMED} more` : ''}`;
}

/** How many matching runs an ambiguous start of an id names: enough to pick from, not a month of runs. */
const NAMED = 5;

/**
 * The runs a start of an id matches, with the target runs of one send to several targets taken as that
 * send (its first target's run, whose id `pushctl runs` lists): any member's id names the whole family.
 */
function oneFamily(matches: RunFile[]): RunFile[] {
  if (matches.length < 2) return matches;
  const families = new Set(matches.map((file) => journalHeader(file)?.targets));
  const [family] = families;
  if (families.size !== 1 || family === undefined) return matches;
  return [matches.find((file) => file.id === family) ?? matches.at(-1)!];
}
