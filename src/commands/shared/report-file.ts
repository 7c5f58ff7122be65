// Where a send's report goes. A report is the record of who got the message, so its path is checked
// before anything is sent — without touching an existing file there — and the report is written whole to
// a temporary file beside it and renamed into place: a kill mid-write never leaves a torn or empty report.
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { usageError } from '../../errors.js';
import { buildReport, reportJsonChunks } from '../../client/report.js';
import type { BatchResult } from '../../client/send-batches.js';

export interface ReportFile {
  /** As the user wrote it (for messages and the resend command). */
  path: string;
  /** Absolute path the report is renamed to. */
  target: string;
  temp: string;
  handle: FileHandle;
}

// The file modules load only when a report is opened or written: most sends write none, and each import
// costs start-up.
const fsPromises = () => import('node:fs/promises');

const why = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

async function openBeside(path: string, target: string): Promise<ReportFile> {
  const { open, stat } = await fsPromises();
  if ((await stat(target).catch(() => undefined))?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  // Mode 600: a report lists recipients, which are personal data to many apps.
  return { path, target, temp, handle: await open(temp, 'wx', 0o600) };
}

/** Checks the `--report` path can be written (a usage error, exit 2, when not); an existing report stays as it is until replaced. */
export async function openReportFile(path: string, cwd: string): Promise<ReportFile> {
  try {
    return await openBeside(path, resolve(cwd, path));
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
    return await openBeside(name, resolve(cwd, name));
  } catch {
    const path = join(tmpdir(), name);
    return openBeside(path, path);
  }
}

/**
 * Writes the report in pieces (the report of a million recipients never exists as one string), each through
 * the secret filter, then renames it into place.
 */
export async function writeReport(file: ReportFile, results: readonly BatchResult[], filter: { scrub(text: string): string }): Promise<void> {
  const [{ Readable }, { pipeline }, { rename, unlink }] = await Promise.all([import('node:stream'), import('node:stream/promises'), fsPromises()]);
  const scrubbed = function* () {
    for (const chunk of reportJsonChunks(buildReport(results))) yield filter.scrub(chunk);
  };
  try {
    await pipeline(Readable.from(scrubbed()), file.handle.createWriteStream());
    await rename(file.temp, file.target);
  } catch (error) {
    await unlink(file.temp).catch(() => {});
    throw error;
  }
}

/** Removes the temporary file of a report that will not be written (nothing was left to report). */
export async function discardReport(file: ReportFile): Promise<void> {
  const { unlink } = await fsPromises();
  await file.handle.close().catch(() => {});
  await unlink(file.temp).catch(() => {});
}
