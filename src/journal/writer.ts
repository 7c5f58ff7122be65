// Appends a run journal (SPEC section 8). Each record is one synchronous write(2): once `write` returns the
// line is in the kernel, so `kill -9` of pushctl loses nothing; fsync runs at least once a second while
// sending and at the end, so a power cut loses at most a second.
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalRecord } from './records.js';

const FSYNC_EVERY_MS = 1000;
const CLOSE_LINE = Buffer.from('}\n');

export interface Scrub {
  scrub(text: string): string;
  scrubBytes(bytes: Buffer): Buffer;
}

export class JournalWriter {
  private fd: number | undefined;
  private dirty = false;
  private readonly timer: NodeJS.Timeout;

  /**
   * Creates the journal file (mode 600, in a directory created mode 700). Never overwrites: a journal is a
   * record of what was sent, so an existing file at the path is an error for the caller to explain.
   */
  constructor(
    readonly path: string,
    private readonly filter: Scrub,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.fd = openSync(path, 'wx', 0o600);
    this.timer = setInterval(() => this.sync(), FSYNC_EVERY_MS);
    // The timer must not keep a finished process alive.
    this.timer.unref();
  }

  write(record: JournalRecord): void {
    // Through the same secret filter as the terminal: a service that echoes the secret must not put it on disk.
    this.writeLine(Buffer.from(`${this.filter.scrub(JSON.stringify(record))}\n`, 'utf8'));
  }

  /** A batch record whose client IDs are already JSON bytes (see ClientIdStore.jsonBytes). */
  writeBatch(b: number, idsJson: Buffer): void {
    this.writeLine(Buffer.concat([Buffer.from(`{"t":"batch","b":${b},"ids":`), this.filter.scrubBytes(idsJson), CLOSE_LINE]));
  }

  private writeLine(line: Buffer): void {
    if (this.fd === undefined) return;
    let offset = 0;
    while (offset < line.length) offset += writeSync(this.fd, line, offset);
    this.dirty = true;
  }

  /** Forces what was written to disk. */
  sync(): void {
    if (this.fd === undefined || !this.dirty) return;
    this.dirty = false;
    try {
      fsyncSync(this.fd);
    } catch {
      // A file system without fsync (some FUSE mounts) still has every line written; nothing to add.
    }
  }

  close(): void {
    clearInterval(this.timer);
    if (this.fd === undefined) return;
    this.sync();
    closeSync(this.fd);
    this.fd = undefined;
  }
}
