// Appends a run journal (docs/behaviour.md#journal). Each record is one synchronous write(2): once `write` returns the
// line is in the kernel, so `kill -9` of pushctl loses nothing; fsync runs at least once a second while
// sending and at the end, so a power cut loses at most a second. A write that fails (a full disk, an I/O
// error, a removed directory) is never ignored: the writer remembers it and every later write throws, so
// the caller stops sending — the journal is written before the wire, or nothing goes out.
import { closeSync, fsyncSync, openSync, writeSync, writevSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import type { JournalRecord } from './records.js';
import { makeDirs } from '../make-dirs.js';

const FSYNC_EVERY_MS = 1000;
const CLOSE_LINE = Buffer.from('}\n');
/** fsync answers on file systems that cannot sync (some FUSE mounts): every line is still written. */
const FSYNC_UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

export interface Scrub {
  scrub(text: string): string;
  scrubBytes(bytes: Buffer): Buffer;
}

/** The journal could not record: no further request may start (docs/behaviour.md#journal). Exit 2, naming the path and the cause. */
export class JournalWriteError extends CliError {
  constructor(
    readonly path: string,
    readonly code: string,
    detail: string,
  ) {
    super(
      `cannot write the run journal ${path} (${code}: ${detail}); no further request was started`,
      ExitCode.usage,
      code === 'ENOSPC' || code === 'EDQUOT'
        ? `free space on that disk, or point PUSHCTL_JOURNAL_DIR (or --journal) at another one, then finish the run with pushctl resend`
        : `check that the directory of ${path} exists and is writable, or point PUSHCTL_JOURNAL_DIR (or --journal) elsewhere, then finish the run with pushctl resend`,
    );
    this.name = 'JournalWriteError';
  }
}

export class JournalWriter {
  private fd: number | undefined;
  private dirty = false;
  private readonly timer: NodeJS.Timeout;
  private failed: JournalWriteError | undefined;

  /**
   * Creates the journal file (mode 600, in a directory created mode 700 when `makeDir`: the runs directory is
   * pushctl's to make, a `--journal` path's directory the user's). Never overwrites: a journal is a record of
   * what was sent, so an existing file at the path is an error for the caller to explain.
   */
  constructor(
    readonly path: string,
    private readonly filter: Scrub,
    makeDir = true,
  ) {
    if (makeDir) makeDirs(dirname(path), 0o700);
    this.fd = openSync(path, 'wx', 0o600);
    this.timer = setInterval(() => this.sync(), FSYNC_EVERY_MS);
    // The timer must not keep a finished process alive.
    this.timer.unref();
  }

  /** The first write that failed, if any: from then on nothing more is written. */
  get failure(): JournalWriteError | undefined {
    return this.failed;
  }

  /** Appends a record; throws a JournalWriteError when it cannot (and on every call after that). */
  write(record: JournalRecord): void {
    // Through the same secret filter as the terminal: a service that echoes the secret must not put it on disk.
    this.writeLine(Buffer.from(`${this.filter.scrub(JSON.stringify(record))}\n`, 'utf8'));
  }

  /** A batch record whose client IDs are already JSON bytes (see ClientIdStore.jsonBytes). */
  writeBatch(b: number, idsJson: Buffer, lang?: string | null): void {
    // Gathered by writev(2) rather than joined first: a copy of every batch's IDs, made only to be written
    // and dropped, was tens of megabytes of short-lived buffers before a big send's first request.
    const variant = lang === undefined ? '' : `"lang":${JSON.stringify(lang)},`;
    this.writeLine(Buffer.from(`{"t":"batch","b":${b},${variant}"ids":`), this.filter.scrubBytes(idsJson), CLOSE_LINE);
  }

  /** The parts of one line, in one write(2) (writev) unless the kernel takes only part of it. */
  private writeLine(...parts: Buffer[]): void {
    if (this.failed) throw this.failed;
    if (this.fd === undefined) return;
    try {
      const size = parts.reduce((sum, part) => sum + part.length, 0);
      let offset = parts.length === 1 ? writeSync(this.fd, parts[0]!) : writevSync(this.fd, parts);
      if (offset < size) {
        const line = Buffer.concat(parts);
        while (offset < size) offset += writeSync(this.fd, line, offset);
      }
    } catch (error) {
      throw this.fail(error);
    }
    this.dirty = true;
  }

  private fail(error: unknown): JournalWriteError {
    const { code = 'EIO', message = String(error) } = error as NodeJS.ErrnoException;
    this.failed ??= new JournalWriteError(this.path, code, message.replace(/^[A-Z]+: /, '').replace(/, write$/, ''));
    return this.failed;
  }

  /** Forces what was written to disk. A sync that fails for lack of space or an I/O error is a failed write. */
  sync(): void {
    if (this.fd === undefined || !this.dirty || this.failed) return;
    this.dirty = false;
    try {
      fsyncSync(this.fd);
    } catch (error) {
      if (!FSYNC_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) this.fail(error);
    }
  }

  close(): void {
    clearInterval(this.timer);
    if (this.fd === undefined) return;
    this.sync();
    try {
      closeSync(this.fd);
    } catch (error) {
      // close(2) can report a deferred write error (NFS): the journal may lack its last lines.
      this.fail(error);
    }
    this.fd = undefined;
  }
}
