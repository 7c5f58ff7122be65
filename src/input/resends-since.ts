// For a journal or report given as the client-ID input: what the runs that resent its run sent since, looked
// for beside it and in the runs directory (docs/behaviour.md#message-input).
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { BatchStatus } from '../client/batch-result.js';
import { laterWords } from '../journal/read-run.js';
import { runsDir } from '../journal/runs-dir.js';

/** Called only when the input turns out to be a journal or a report, with the run it names. */
export function resendsSince(path: string, cwd: string, env: Record<string, string | undefined> | undefined): (runId: string) => ReadonlyMap<string, BatchStatus> {
  return (runId) => {
    const runs = env ? runsDir(env) : undefined;
    const dirs = [...(path === '-' ? [] : [dirname(isAbsolute(path) ? path : resolve(cwd, path))]), ...(runs ? [runs] : [])];
    return laterWords(dirs, runId, join(runs ?? dirs[0] ?? cwd, '.locks'));
  };
}
