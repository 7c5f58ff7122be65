// Where a send's report goes. A report is the record of who got the message, so its file is opened
// before anything is sent: a path that cannot be written stops the run while nothing has gone out.
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usageError } from '../errors.js';
import { buildReport, reportJsonChunks } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';

export interface ReportFile {
  path: string;
  handle: FileHandle;
}

const why = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Opens (and truncates) the `--report` file; a usage error (exit 2) when it cannot be written. */
export async function openReportFile(path: string, cwd: string): Promise<ReportFile> {
  try {
    return { path, handle: await open(resolve(cwd, path), 'w') };
  } catch (error) {
    throw usageError(`--report ${path} cannot be written (${why(error)})`, 'give a path in a directory you can write to');
  }
}

/**
 * The report nobody asked for, written because some recipients are unknown or were not sent: in the
 * working directory, or the temporary directory when that is not writable.
 */
export async function openAutomaticReportFile(cwd: string): Promise<ReportFile> {
  const name = `pushctl-report-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  try {
    return { path: name, handle: await open(resolve(cwd, name), 'w') };
  } catch {
    const path = join(tmpdir(), name);
    return { path, handle: await open(path, 'w') };
  }
}

/** Writes the report in pieces: the report of a million recipients never exists as one string in memory. */
export async function writeReport(file: ReportFile, results: readonly BatchResult[]): Promise<void> {
  // The stream modules load only here: most sends write no report, and each import costs start-up.
  const [{ Readable }, { pipeline }] = await Promise.all([import('node:stream'), import('node:stream/promises')]);
  await pipeline(Readable.from(reportJsonChunks(buildReport(results))), file.handle.createWriteStream());
}
