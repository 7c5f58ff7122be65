// Where run journals live (docs/behaviour.md#journal): the runs directory, the names of its journals, and
// their headers and closing records read without reading a journal whole. How long they stay: retention.ts.
import { closeSync, fstatSync, lstatSync, readdirSync, readSync } from 'node:fs';
import { configError } from '../errors.js';
import { join } from 'node:path';
import { homeDir } from '../settings/paths.js';
import { headerProblem, type HeaderRecord } from './records.js';
import { MAX_LINE, openJournalFile, openJournalFileWithStats } from './journal-file.js';
import { isoTime } from '../iso-time.js';

type Env = Record<string, string | undefined>;

export const SUFFIX = '.jsonl';
/** The names pushctl gives journals in the runs directory: `<run id>.jsonl`. */
const RUN_FILE = /^\d{8}-\d{6}-[0-9a-f]{4}\.jsonl$/;
const HEADER_START = /^\{"t":"header","format":"pushctl-journal"/;
/** How much of a file is read to see whether it starts as a journal: most headers fit whole. */
const HEADER_PEEK = 64 * 1024;

/** `PUSHCTL_JOURNAL_DIR`, else `$XDG_STATE_HOME/pushctl/runs`, else `~/.local/state/pushctl/runs`. */
export function runsDir(env: Env): string {
  // "-" is stdin or stdout where pushctl takes it; never a directory to make in the working directory.
  if (env.PUSHCTL_JOURNAL_DIR === '-') {
    throw configError('PUSHCTL_JOURNAL_DIR=- would keep the run journals in a directory named "-"', 'set PUSHCTL_JOURNAL_DIR to a directory path, e.g. PUSHCTL_JOURNAL_DIR=.pushctl/runs, or unset it for the default');
  }
  if (env.PUSHCTL_JOURNAL_DIR) return env.PUSHCTL_JOURNAL_DIR;
  return join(env.XDG_STATE_HOME || join(homeDir(env), '.local', 'state'), 'pushctl', 'runs');
}

/**
 * The runs directory of `runs` (and the MCP tool list_runs), readable or not there yet: a missing one holds
 * no runs yet, but a file or an unreadable directory is named, never read as an empty list.
 */
export function checkRunsDir(dir: string, env: Env): void {
  const named = env.PUSHCTL_JOURNAL_DIR ? `PUSHCTL_JOURNAL_DIR ${dir}` : `the journal directory ${dir}`;
  try {
    readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw configError(`${named} is a file, not a directory of journals`, 'set PUSHCTL_JOURNAL_DIR to the directory that holds the journals; pushctl runs show <file> reads one journal');
    throw configError(`${named} cannot be read (${code ?? String(error)})`, 'give yourself read access to it, or set PUSHCTL_JOURNAL_DIR to a directory of yours');
  }
}

/** `20261122-231502-4f1c`: sorts by start time, short enough to type. */
export function newRunId(now: Date, random: () => number = Math.random): string {
  const stamp = isoTime(now).replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.floor(random() * 0x10000).toString(16).padStart(4, '0')}`;
}

export const journalPath = (dir: string, runId: string) => join(dir, `${runId}${SUFFIX}`);

export interface RunFile {
  id: string;
  path: string;
  modifiedMs: number;
  /** Its size when listed: with modifiedMs, whether it was written since (a file's time moves in steps of milliseconds). */
  bytes: number;
}

/**
 * The names in `dir` shaped like journals (`<run id>.jsonl`) that are regular files, from the directory's
 * listing alone: no file is opened or stat-ed. None when the directory does not exist yet.
 */
function journalNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && RUN_FILE.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The journal `name` in `dir` as listed: undefined unless it is a regular file of this user (docs/behaviour.md#trust). */
export function runFileAt(dir: string, name: string, uid: number | undefined): RunFile | undefined {
  const path = join(dir, name);
  try {
    const info = lstatSync(path);
    if (!info.isFile() || (uid !== undefined && info.uid !== uid)) return undefined;
    return { id: name.slice(0, -SUFFIX.length), path, modifiedMs: info.mtimeMs, bytes: info.size };
  } catch {
    // Removed while listing: nothing to show.
    return undefined;
  }
}

/** Newest first: ids sort by start second; within one second the later write is the newer run. */
const newestFirst = (a: RunFile, b: RunFile) => (a.id.slice(0, 15) < b.id.slice(0, 15) ? 1 : a.id.slice(0, 15) > b.id.slice(0, 15) ? -1 : b.modifiedMs - a.modifiedMs);

/**
 * The journals in `dir`, newest first; none when the directory does not exist yet. Only regular files of
 * this user count (docs/behaviour.md#trust): a link, a FIFO or another user's file is not a run of ours.
 * `idStart`: only the runs whose id starts so, picked by name before any is stat-ed (a run named among a
 * month of them costs a listing, not a stat of each).
 */
export function listRunFiles(dir: string, idStart = ''): RunFile[] {
  const uid = process.getuid?.();
  const named = journalNames(dir).filter((name) => name.slice(0, -SUFFIX.length).startsWith(idStart));
  const files = named.flatMap((name) => runFileAt(dir, name, uid) ?? []);
  // A plain comparison: localeCompare would load ICU's collation tables, milliseconds at the end of every send.
  return files.sort(newestFirst);
}

/** A journal as the directory names it; `file` when it was stat-ed to be ordered (see listRunNames). */
export interface RunName {
  id: string;
  path: string;
  file?: RunFile;
}

/**
 * The journals in `dir` in listRunFiles' order, with only the runs that share a start second stat-ed (their
 * order is by last write): a look through a month of runs costs a listing, not a stat of every journal. A
 * name is not yet a run of ours: whoever reads one opens it as a journal (openJournalFile), which checks.
 */
export function listRunNames(dir: string): RunName[] {
  const names = journalNames(dir).sort().reverse();
  const uid = process.getuid?.();
  const out: RunName[] = [];
  for (let from = 0; from < names.length; ) {
    let to = from + 1;
    while (to < names.length && names[to]!.slice(0, 15) === names[from]!.slice(0, 15)) to++;
    if (to - from === 1) out.push({ id: names[from]!.slice(0, -SUFFIX.length), path: join(dir, names[from]!) });
    else {
      const files = names.slice(from, to).flatMap((name) => runFileAt(dir, name, uid) ?? []);
      out.push(...files.sort(newestFirst).map((file) => ({ id: file.id, path: file.path, file })));
    }
    from = to;
  }
  return out;
}

/** The last line of a file, read from its end (a journal's closing record), without reading the whole file. */
export function lastLine(path: string, maxBytes = 64 * 1024): string {
  const fd = openJournalFile(path);
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8').replace(/\n$/, '');
    return text.slice(text.lastIndexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first line of a file (a journal's header), reading at most `maxBytes`, 64 KiB at a time. By
 * default as long as any record may be: a header holds the run's whole message, and one cut short would read
 * as no journal at all (a --once key not found, its run sent again).
 */
export function firstLine(path: string, maxBytes = MAX_LINE): string {
  const fd = openJournalFile(path);
  try {
    return firstLineOf(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

function firstLineOf(fd: number, maxBytes: number): string {
  // Most first lines fit the first read: that one goes into a buffer kept for it, not a new 64 KiB one
  // per journal (a `--once` looks through every journal of the directory).
  const read = readSync(fd, firstRead, 0, Math.min(firstRead.length, maxBytes), 0);
  const end = firstRead.subarray(0, read).indexOf(0x0a);
  if (end !== -1 || read < Math.min(firstRead.length, maxBytes) || read >= maxBytes) return firstRead.toString('utf8', 0, end === -1 ? read : end);
  const chunks: Buffer[] = [Buffer.from(firstRead.subarray(0, read))];
  let total = read;
  while (total < maxBytes) {
    const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - total));
    const more = readSync(fd, buffer, 0, buffer.length, total);
    if (more === 0) break;
    const at = buffer.subarray(0, more).indexOf(0x0a);
    chunks.push(buffer.subarray(0, at === -1 ? more : at));
    total += more;
    if (at !== -1) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

const firstRead = Buffer.allocUnsafe(64 * 1024);

/** Whether a file is one of pushctl's journals: its first line is a journal header. Never throws. */
export function isJournalFile(path: string): boolean {
  try {
    return HEADER_START.test(firstLine(path, HEADER_PEEK));
  } catch {
    return false;
  }
}

/** A journal's header, from its first line alone; undefined for a file that is not a journal. Never throws. */
export function journalHeader(file: string | RunFile): HeaderRecord | undefined {
  const header = anyHeader(file);
  // A header edited to hold fields of the wrong kind is no run to list, follow or resend (readRun names the field).
  return header && headerProblem(header) === undefined ? (header as HeaderRecord) : undefined;
}

/**
 * Headers this process has read, by path, with the time and size their file had then. A header never changes
 * once written, and one command may look through a directory's headers more than once (a `--once` finds its
 * run, then the run's family): each is read once while its file stays as it was.
 */
const headersRead = new Map<string, { modifiedMs: number; bytes: number; header: Partial<HeaderRecord> }>();
const MAX_HEADERS_KEPT = 10_000;

/**
 * The first line when it is a header of ours, whatever its fields hold: enough for retention to decide, and
 * for `--once` to know a key is taken by a journal it cannot read. A journal is read once while it stays
 * as it was (its time and size as listed, or as opened). Never throws.
 */
export function anyHeader(file: string | RunFile): Partial<HeaderRecord> | undefined {
  const path = typeof file === 'string' ? file : file.path;
  const known = headersRead.get(path);
  if (known && typeof file !== 'string' && known.modifiedMs === file.modifiedMs && known.bytes === file.bytes) return known.header;
  try {
    const { fd, modifiedMs, bytes } = openJournalFileWithStats(path);
    try {
      if (known && known.modifiedMs === modifiedMs && known.bytes === bytes) return known.header;
      const header = headerIn(fd);
      // Only a header is kept: a file not yet one (created, its header still to come) is read again.
      if (header === undefined) return undefined;
      // A bound for a process that lives long (`pushctl mcp`): its directories' journals come and go.
      if (headersRead.size >= MAX_HEADERS_KEPT) headersRead.clear();
      headersRead.set(path, { modifiedMs, bytes, header });
      return header;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function headerIn(fd: number): Partial<HeaderRecord> | undefined {
  // A file that does not start as a header is not read on to the end of its first line (up to 64 MiB);
  // a header shorter than the first read is whole already.
  const start = firstLineOf(fd, HEADER_PEEK);
  if (!HEADER_START.test(start)) return undefined;
  const header = JSON.parse(Buffer.byteLength(start) < HEADER_PEEK ? start : firstLineOf(fd, MAX_LINE)) as Partial<HeaderRecord>;
  return header.t === 'header' && header.format === 'pushctl-journal' && typeof header.run_id === 'string' ? header : undefined;
}

/** When a run started, from its id (`20261122-231502-…`); undefined for a name pushctl did not make. */
export function startedAtMs(id: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
}
