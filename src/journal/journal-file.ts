// Opening and streaming a journal file. A journal is data another process (or user) may have put there, so
// only a regular file of this user is read (docs/behaviour.md#trust): a FIFO would block the reader for
// ever, and a journal planted by another user could claim a run is done. The file is read in pieces, line
// by line, so a journal of any size is read in the memory its reader keeps.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { JournalAccumulator, type CollectIds, type JournalRun } from './reader.js';

const CHUNK = 1024 * 1024;
/**
 * A longer line is no record pushctl writes (a batch of 1000 long IDs is far below it; a header holding a
 * message of 4 MiB and its variants too, which the writer checks): skipped whole.
 */
export const MAX_LINE = 64 * 1024 * 1024;

/** Why a file is not read as a journal, in words; `code` as node:fs names it, or ours. */
export class JournalFileError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'JournalFileError';
  }
}

/** This process's user: asked once, not once for every journal of a directory looked through. */
let processUid: number | undefined | null = null;
const ownUid = () => (processUid === null ? (processUid = process.getuid?.()) : processUid);

/** Opens `path` for reading if it is a regular file owned by this user; throws a JournalFileError otherwise. */
export function openJournalFile(path: string): number {
  return openJournalFileWithStats(path).fd;
}

/** openJournalFile, with what the file was when opened: its time and size, as a listing would give them. */
export function openJournalFileWithStats(path: string): { fd: number; modifiedMs: number; bytes: number } {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO with no writer would otherwise wait for one.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new JournalFileError(path, code, `cannot be read (${code})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new JournalFileError(path, 'ENOTREG', 'is not a regular file');
    const uid = ownUid();
    if (uid !== undefined && info.uid !== uid) throw new JournalFileError(path, 'EOWNER', `is owned by another user (uid ${info.uid}); journals of other users are not read as runs`);
    return { fd, modifiedMs: info.mtimeMs, bytes: info.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Calls `line` for every complete line of the open file (without its newline), from `position`, reading a
 * megabyte at a time; returns the torn rest (a last line with no newline), which is not a record.
 */
export function forEachLine(fd: number, line: (text: string) => void, position = 0): string {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer[] = [];
  let carried = 0;
  let overlong = false;
  for (let at = position; ; ) {
    const read = readSync(fd, buffer, 0, CHUNK, at);
    if (read === 0) break;
    at += read;
    let start = 0;
    for (let end = buffer.indexOf(0x0a, 0); end !== -1 && end < read; end = buffer.indexOf(0x0a, start)) {
      const piece = buffer.subarray(start, end);
      if (!overlong) line(carried === 0 ? piece.toString('utf8') : Buffer.concat([...carry, piece]).toString('utf8'));
      else line('\u0000overlong');
      carry = [];
      carried = 0;
      overlong = false;
      start = end + 1;
    }
    if (start < read) {
      carried += read - start;
      if (carried > MAX_LINE) {
        overlong = true;
        carry = [];
      } else carry.push(Buffer.from(buffer.subarray(start, read)));
    }
  }
  return overlong ? '\u0000overlong' : Buffer.concat(carry).toString('utf8');
}

/** Reads a journal file in one pass (see openJournalFile for what is refused); `onIds` as JournalAccumulator's. */
export function readJournalFile(path: string, collect: CollectIds = true, onIds?: (ids: readonly string[]) => void): JournalRun {
  const fd = openJournalFile(path);
  try {
    const reader = new JournalAccumulator(collect, onIds);
    const torn = forEachLine(fd, (text) => reader.line(text));
    if (torn !== '') reader.torn();
    return reader.finish();
  } finally {
    closeSync(fd);
  }
}
