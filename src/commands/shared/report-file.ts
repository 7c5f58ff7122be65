// Where a send's report goes. A report is the record of who got the message, so its path is checked
// before anything is sent — without touching an existing file there — and the report is written whole to
// a temporary file beside it and renamed into place: a kill mid-write never leaves a torn or empty report.
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { usageError } from '../../errors.js';
import { missingDirHint } from '../../missing-dir-hint.js';
import { escapeRegExp } from '../../reword.js';
import { buildReport, reportJsonChunks } from '../../client/report.js';
import type { BatchResult } from '../../client/send-batches.js';
import type { SecretScrubber } from '../../output/redact.js';
import { runProcessAlive } from '../../journal/process-start.js';

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

/** The temporary file a writer with process id `pid` uses for `target`. */
const tempName = (target: string, pid: number) => join(dirname(target), `.${basename(target)}.${pid}.tmp`);


/**
 * Removes the temporary files a killed writer left in `dir` (a SIGKILL gives no chance to clean up, and each
 * holds a whole report's client IDs): only ours, by name (`names` captures the writer's pid), regular files
 * owned by this user, whose writer is gone. A file of a live process, another user's, or any other name stays.
 */
async function removeStaleTemps(dir: string, names: RegExp): Promise<void> {
  const { lstat, readdir, unlink } = await fsPromises();
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const name of entries) {
    const pid = Number(names.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    // Our own pid cannot have a temporary file yet: one with it is a dead writer's whose pid came round again.
    if (pid !== process.pid && runProcessAlive(pid, undefined)) continue;
    const file = join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (!info?.isFile() || (process.getuid !== undefined && info.uid !== process.getuid())) continue;
    await unlink(file).catch(() => {});
  }
}

async function openBeside(path: string, target: string, stale: RegExp): Promise<ReportFile> {
  const { open, stat } = await fsPromises();
  if ((await stat(target).catch(() => undefined))?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  await removeStaleTemps(dirname(target), stale);
  const temp = tempName(target, process.pid);
  // Mode 600: a report lists recipients, which are personal data to many apps.
  return { path, target, temp, handle: await open(temp, 'wx', 0o600) };
}

/** The temporary files of writers of `target`. */
const tempsOf = (target: string) => new RegExp(`^\\.${escapeRegExp(basename(target))}\\.(\\d+)\\.tmp$`);

/** The run that wrote the report at `target`: its run id, null for a file that is not a pushctl report, undefined for no file. */
async function existingReport(target: string): Promise<string | null | undefined> {
  const { open } = await fsPromises();
  const handle = await open(target, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    const start = buffer.subarray(0, bytesRead).toString('utf8');
    return /^\{\n {2}"version": 1,\n {2}"run_id": "([^"\\]{1,64})"/.exec(start)?.[1] ?? null;
  } finally {
    await handle.close();
  }
}

/**
 * Checks the `--report` path can be written (a usage error, exit 2, when not); an existing report stays as it
 * is until replaced. An existing file is replaced only with `force`, or when it is a pushctl report of one of
 * `runIds` (the run, or its family: a re-run replaces its own report). Nothing else is ever overwritten.
 */
export async function openReportFile(path: string, cwd: string, options: { force?: boolean; runIds?: readonly string[] } = {}): Promise<ReportFile> {
  const target = resolve(cwd, path);
  const existing = await existingReport(target).catch(() => undefined);
  if (existing !== undefined && !options.force && !(existing !== null && options.runIds?.includes(existing))) {
    throw usageError(`--report ${path} exists and is not a report of this run`, 'give a new path, or add --force to replace it');
  }
  try {
    return await openBeside(path, target, tempsOf(target));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(dirname(target));
    throw usageError(`--report ${path} cannot be written (${why(error)})`, missing ? missingDirHint(dirname(target), '--report') : 'give a path in a directory you can write to');
  }
}

/**
 * Writes the report in pieces (the report of a million recipients never exists as one string), each through
 * the secret filter, then renames it into place.
 */
export async function writeReport(file: ReportFile, results: readonly BatchResult[], filter: Pick<SecretScrubber, 'stream'>, runId?: string): Promise<void> {
  const [{ Readable }, { pipeline }, { rename, unlink }] = await Promise.all([import('node:stream'), import('node:stream/promises'), fsPromises()]);
  // One scrubbing stream over all the pieces, so a secret that a piece boundary cuts in two is still caught.
  const scrubbed = function* () {
    const stream = filter.stream();
    for (const chunk of reportJsonChunks(buildReport(results, runId))) yield stream.write(chunk);
    yield stream.end();
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
