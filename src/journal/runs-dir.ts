// Where run journals live and how long they stay (docs/behaviour.md#journal). Retention: a journal older than 30 days
// is removed; younger ones are removed only past the newest 100, and only when their run left nothing
// in doubt or not sent and holds no `--once` key — a run someone may still need to finish, or that a CI re-run
// must find, is kept at least 30 days. Only pushctl's own journals are ever removed: a file whose name is a
// run id and whose first line is a pushctl journal header. Anything else in the directory is left alone.
import { closeSync, fstatSync, lstatSync, readdirSync, readSync, unlinkSync } from 'node:fs';
import { configError } from '../errors.js';
import { join } from 'node:path';
import { listDir } from '../list-dir.js';
import { homeDir } from '../settings/paths.js';
import { headerProblem, type HeaderRecord } from './records.js';
import { MAX_LINE, openJournalFile } from './journal-file.js';
import { pruneLocks } from './ownership.js';
import { isoTime } from '../iso-time.js';

type Env = Record<string, string | undefined>;

export const KEEP_RUNS = 100;
export const KEEP_DAYS = 30;
const DAY_MS = 86_400_000;
const SUFFIX = '.jsonl';
/** The names pushctl gives journals in the runs directory: `<run id>.jsonl`. */
const RUN_FILE = /^\d{8}-\d{6}-[0-9a-f]{4}\.jsonl$/;
const HEADER_START = /^\{"t":"header","format":"pushctl-journal"/;

/** `PUSHCTL_JOURNAL_DIR`, else `$XDG_STATE_HOME/pushctl/runs`, else `~/.local/state/pushctl/runs`. */
export function runsDir(env: Env): string {
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
}

/**
 * The journals in `dir`, newest first; none when the directory does not exist yet. Only regular files of
 * this user count (docs/behaviour.md#trust): a link, a FIFO or another user's file is not a run of ours.
 */
export function listRunFiles(dir: string): RunFile[] {
  const files: RunFile[] = [];
  for (const name of listDir(dir)) {
    if (!RUN_FILE.test(name)) continue;
    const path = join(dir, name);
    try {
      const info = lstatSync(path);
      const uid = process.getuid?.();
      if (!info.isFile() || (uid !== undefined && info.uid !== uid)) continue;
      files.push({ id: name.slice(0, -SUFFIX.length), path, modifiedMs: info.mtimeMs });
    } catch {
      // Removed while listing: nothing to show.
    }
  }
  // Ids sort by start second; within one second the later write is the newer run. A plain comparison:
  // localeCompare would load ICU's collation tables, milliseconds at the end of every send.
  return files.sort((a, b) => (a.id.slice(0, 15) < b.id.slice(0, 15) ? 1 : a.id.slice(0, 15) > b.id.slice(0, 15) ? -1 : b.modifiedMs - a.modifiedMs));
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
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < maxBytes) {
      const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes - total));
      const read = readSync(fd, buffer, 0, buffer.length, total);
      if (read === 0) break;
      const end = buffer.subarray(0, read).indexOf(0x0a);
      chunks.push(buffer.subarray(0, end === -1 ? read : end));
      total += read;
      if (end !== -1) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is one of pushctl's journals: its first line is a journal header. Never throws. */
export function isJournalFile(path: string): boolean {
  try {
    return HEADER_START.test(firstLine(path, 64 * 1024));
  } catch {
    return false;
  }
}

/** A journal's header, from its first line alone; undefined for a file that is not a journal. Never throws. */
export function journalHeader(path: string): HeaderRecord | undefined {
  const header = anyHeader(path);
  // A header edited to hold fields of the wrong kind is no run to list, follow or resend (readRun names the field).
  return header && headerProblem(header) === undefined ? (header as HeaderRecord) : undefined;
}

/**
 * The first line when it is a header of ours, whatever its fields hold: enough for retention to decide, and
 * for `--once` to know a key is taken by a journal it cannot read. Never throws.
 */
export function anyHeader(path: string): Partial<HeaderRecord> | undefined {
  try {
    // A file that does not start as a header is not read on to the end of its first line (up to 64 MiB).
    if (!HEADER_START.test(firstLine(path, 64 * 1024))) return undefined;
    const header = JSON.parse(firstLine(path)) as Partial<HeaderRecord>;
    return header.t === 'header' && header.format === 'pushctl-journal' && typeof header.run_id === 'string' ? header : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a journal is kept for 30 days even when settled: it holds a `--once` key (a CI re-run looks for it),
 * or it resent a run (docs/behaviour.md#resend). The run it resent left recipients, so it is kept; without its
 * resend it would read as still owing them, and a resend of it would send them the message again.
 */
function keptWithItsFamily(path: string): boolean {
  const header = anyHeader(path);
  return typeof header?.once === 'string' || typeof header?.parent === 'string';
}

/**
 * Whether a journal's run closed with every batch accepted or rejected (nothing left to resend). Batches, not
 * recipients: a message to all devices or by condition has no client IDs to count, only its requests.
 */
function settled(path: string): boolean {
  try {
    type Left = { in_doubt?: number; unknown?: number; not_sent?: number };
    const end = JSON.parse(lastLine(path)) as { t?: string; summary?: { batches?: Left; recipients?: Left } };
    const { batches, recipients } = end.summary ?? {};
    // `unknown` is the in-doubt count of journals written before 0.3.
    const recipientsLeft = (recipients?.in_doubt ?? recipients?.unknown) !== 0 || recipients?.not_sent !== 0;
    const batchesLeft = (batches?.in_doubt ?? batches?.unknown ?? 0) !== 0 || (batches?.not_sent ?? 0) !== 0;
    return end.t === 'end' && !recipientsLeft && !batchesLeft;
  } catch {
    return false;
  }
}

/** When a run started, from its id (`20261122-231502-…`); undefined for a name pushctl did not make. */
export function startedAtMs(id: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
}

/** Applies the retention policy to `dir`; returns the paths removed. Never throws. */
export function pruneRuns(dir: string, nowMs: number, keep = KEEP_RUNS): string[] {
  const removed: string[] = [];
  // Every run leaves its released lock behind (docs/behaviour.md#ownership); a day later nobody waits on it.
  pruneLocks(join(dir, '.locks'), nowMs - DAY_MS);
  // The common case costs one readdir: few enough runs, and the oldest (ids sort by start time) still young.
  const names = listDir(dir).filter((name) => RUN_FILE.test(name)).sort();
  const oldest = names.length > 0 ? startedAtMs(names[0]!.slice(0, -SUFFIX.length)) : undefined;
  if (names.length <= keep && (oldest === undefined || nowMs - oldest <= KEEP_DAYS * DAY_MS)) return removed;
  listRunFiles(dir).forEach((file, rank) => {
    const old = nowMs - file.modifiedMs > KEEP_DAYS * DAY_MS;
    if (!old && rank < keep) return;
    // A name like ours is not proof: only a file that starts with a pushctl journal header is ours to remove.
    if (!isJournalFile(file.path)) return;
    if (old || (settled(file.path) && !keptWithItsFamily(file.path))) {
      try {
        unlinkSync(file.path);
        removed.push(file.path);
      } catch {
        // Someone else removed it, or it is not ours to remove: leave it.
      }
    }
  });
  return removed;
}
