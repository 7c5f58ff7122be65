// How long journals stay (docs/behaviour.md#journal). A journal older than 30 days is removed; younger ones are
// removed only past the newest 100, and only when their run left nothing in doubt or not sent and holds no
// `--once` key — a run someone may still need to finish, or that a CI re-run must find, is kept at least 30
// days. Only pushctl's own journals are ever removed: a file whose name is a run id and whose first line is a
// pushctl journal header. Anything else in the directory is left alone.
//
// Every run's end applies the policy, so its cost is paid by every send. What decides a young journal's fate
// does not change once its run has ended (its header and closing record are written for good), so a
// journal read and kept by one pass is not read, nor even stat-ed, by the next: a record beside the journals
// (RETENTION_MARK) says which were read — every one from a start second before the record's — and which of
// them had not ended then (those are read again). A directory of a month of `--once` runs then costs a run's
// end a listing. The record can only make a pass read less, and what is not read is kept: at worst a journal
// stays until it is 30 days old, which the listing shows (a journal is written after its run started).
import { readSync, renameSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalFile } from './journal-file.js';
import { pruneLocks } from './ownership.js';
import { anyHeader, isJournalFile, lastLine, listRunNames, runFileAt, startedAtMs, SUFFIX, type RunFile } from './runs-dir.js';

export const KEEP_RUNS = 100;
export const KEEP_DAYS = 30;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The record of the last pass, in the runs directory: a name no journal has. */
export const RETENTION_MARK = '.retention.json';

/**
 * What the last pass read: every journal whose start second (the first 15 characters of its id) is before
 * `before`; of those, the ones whose run had not ended (`open`, ids); and when it last read the locks.
 */
interface Mark {
  before: string;
  open: string[];
  locksAtMs: number;
}

const START_SECOND = /^\d{8}-\d{6}$/;
const RUN_ID = /^\d{8}-\d{6}-[0-9a-f]{4}$/;
/** A record larger than this is none of ours: 10,000 runs not ended are far past what a pass keeps open. */
const MAX_MARK_BYTES = 256 * 1024;

/** The record of the last pass, when it is a regular file of this user's that says what a pass writes. */
function readMark(dir: string): Mark | undefined {
  try {
    const fd = openJournalFile(join(dir, RETENTION_MARK));
    try {
      const buffer = Buffer.alloc(MAX_MARK_BYTES);
      const { before, open, locksAtMs } = JSON.parse(buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0))) as Partial<Mark>;
      const valid = typeof before === 'string' && (before === '' || START_SECOND.test(before)) && Array.isArray(open) && open.every((id) => typeof id === 'string' && RUN_ID.test(id)) && Number.isFinite(locksAtMs);
      return valid ? { before, open, locksAtMs: locksAtMs! } : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Replaces the record whole (a rename), so that a pass running beside this one never reads half of it. */
function writeMark(dir: string, mark: Mark): void {
  const temporary = join(dir, `${RETENTION_MARK}.${process.pid}`);
  try {
    writeFileSync(temporary, JSON.stringify(mark), { mode: 0o600 });
    renameSync(temporary, join(dir, RETENTION_MARK));
  } catch {
    // Without a record the next pass reads every journal again: slower, never wrong.
    try {
      unlinkSync(temporary);
    } catch {
      // Never made.
    }
  }
}

/**
 * Whether a journal is kept for 30 days even when settled: it holds a `--once` key (a CI re-run looks for it),
 * or it resent a run (docs/behaviour.md#resend). The run it resent left recipients, so it is kept; without its
 * resend it would read as still owing them, and a resend of it would send them the message again.
 */
function keptWithItsFamily(file: RunFile): boolean {
  const header = anyHeader(file);
  return typeof header?.once === 'string' || typeof header?.parent === 'string';
}

/**
 * How a journal's run closed: `settled` with every batch accepted or rejected (nothing left to resend),
 * `left` with something in doubt or not sent, `open` not yet (running, or killed). Batches, not recipients:
 * a message to all devices or by condition has no client IDs to count, only its requests.
 */
function closing(path: string): 'settled' | 'left' | 'open' {
  try {
    type Left = { in_doubt?: number; unknown?: number; not_sent?: number };
    const end = JSON.parse(lastLine(path)) as { t?: string; summary?: { batches?: Left; recipients?: Left } };
    if (end.t !== 'end') return 'open';
    const { batches, recipients } = end.summary ?? {};
    // `unknown` is the in-doubt count of journals written before 0.3.
    const recipientsLeft = (recipients?.in_doubt ?? recipients?.unknown) !== 0 || recipients?.not_sent !== 0;
    const batchesLeft = (batches?.in_doubt ?? batches?.unknown ?? 0) !== 0 || (batches?.not_sent ?? 0) !== 0;
    return recipientsLeft || batchesLeft ? 'left' : 'settled';
  } catch {
    return 'open';
  }
}

/** Applies the retention policy to `dir`; returns the paths removed. Never throws. */
export function pruneRuns(dir: string, nowMs: number, keep = KEEP_RUNS): string[] {
  const removed: string[] = [];
  const mark = readMark(dir);
  // Every run leaves its released lock behind (docs/behaviour.md#ownership); a day later nobody waits on it.
  // Read each time while the directory is small (a record is kept only past the newest `keep` runs), at most
  // hourly once there is one: a day of frequent runs leaves a day of locks.
  const locksDue = mark === undefined || nowMs - mark.locksAtMs >= HOUR_MS || nowMs < mark.locksAtMs;
  if (locksDue) pruneLocks(join(dir, '.locks'), nowMs - DAY_MS);
  const locksAtMs = locksDue ? nowMs : mark.locksAtMs;
  // The common case costs one readdir: few enough runs, and the oldest (ids sort by start time) still young.
  const runs = listRunNames(dir);
  const oldest = runs.length > 0 ? startedAtMs(runs[runs.length - 1]!.id) : undefined;
  if (runs.length <= keep && (oldest === undefined || nowMs - oldest <= KEEP_DAYS * DAY_MS)) {
    if (mark && locksDue) writeMark(dir, { ...mark, locksAtMs });
    return removed;
  }
  const open = new Set(mark?.open);
  const stillOpen: string[] = [];
  const uid = process.getuid?.();
  runs.forEach((run, rank) => {
    // Read by the last pass, and ended then: what it decided stands.
    const known = mark !== undefined && run.id.slice(0, 15) < mark.before && !open.has(run.id);
    // A journal is written after its run started: one that started within 30 days is not 30 days old.
    const mayBeOld = nowMs - (startedAtMs(run.id) ?? 0) > KEEP_DAYS * DAY_MS;
    if (!mayBeOld && (rank < keep || known)) return;
    const file = run.file ?? runFileAt(dir, `${run.id}${SUFFIX}`, uid);
    if (file === undefined) return;
    const old = nowMs - file.modifiedMs > KEEP_DAYS * DAY_MS;
    if (!old && (rank < keep || known)) return;
    // A name like ours is not proof: only a file that starts with a pushctl journal header is ours to remove.
    if (!isJournalFile(file.path)) return;
    // A key or a resent run keeps a journal 30 days whatever its run comes to: that stands.
    const fate = old ? 'old' : keptWithItsFamily(file) ? 'kept' : closing(file.path);
    if (fate === 'open') stillOpen.push(run.id);
    if (fate !== 'old' && fate !== 'settled') return;
    try {
      unlinkSync(file.path);
      removed.push(file.path);
    } catch {
      // Someone else removed it, or it is not ours to remove: leave it.
    }
  });
  // Every journal from a start second before the newest `keep`'s oldest one was read or known (those of that
  // second may not all have been). With fewer journals than `keep`, none young was.
  const newestKept = runs[keep - 1];
  writeMark(dir, { before: newestKept ? newestKept.id.slice(0, 15) : '', open: stillOpen, locksAtMs });
  return removed;
}
