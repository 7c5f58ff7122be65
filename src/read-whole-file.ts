// Reading the files a user names (a message, a data file, a secret, a client-ID list) as they may really be:
// a regular file, a directory, /dev/zero, an endless pipe, or a FIFO whose writer never comes.
// - Every read has a cap, checked as bytes arrive: `-f /dev/zero` stops at the cap plus one read, not at the
//   machine's memory.
// - Nothing waits in a synchronous call or in the thread pool for a pipe: a FIFO is opened without blocking
//   and read by the event loop like stdin, so a signal ends the wait (libuv joins its threads at exit, so a
//   thread blocked in open(2) on a FIFO would keep even a process that wants to exit alive).
// - A directory is the error EISDIR at once, whatever the caller does next.
import { closeSync, constants, createReadStream, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';

/** The input holds more than the cap allows; nothing past the cap (and one read) was read. */
export class InputTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${describeBytes(maxBytes)}`);
    this.name = 'InputTooLargeError';
  }
}

/** The wait for the input was ended by the caller's signal (Ctrl-C, a job's cancel). */
export class InputInterruptedError extends Error {
  constructor() {
    super('interrupted while waiting for the input');
    this.name = 'InputInterruptedError';
  }
}

/** `4 MiB`, `64 KiB`: how caps are named in messages. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}

export interface ReadLimits {
  /** Refuse (InputTooLargeError) an input longer than this many bytes. */
  maxBytes: number;
  /** Ends a wait for a pipe or stdin with InputInterruptedError. */
  signal?: AbortSignal | undefined;
}

const isDirectoryError = (path: string) => Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', path });

/**
 * Opens `path` without ever blocking (O_NONBLOCK: a FIFO with no writer yet opens at once), refusing a
 * directory with EISDIR. Errors are those of node:fs (ENOENT, EACCES...).
 */
function openWithoutWaiting(path: string): { fd: number; stats: Stats } {
  // Windows has no O_NONBLOCK (and no FIFOs to wait on).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let stats: Stats;
  try {
    stats = fstatSync(fd);
    if (stats.isDirectory()) throw isDirectoryError(path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return { fd, stats };
}

/**
 * A readable stream of `path`: a regular file or a device read through the thread pool, a FIFO or socket
 * through the event loop (a pipe handle, as stdin is read), so waiting for its writer never blocks.
 * `size` is the file's size (0 for anything that is not a regular file).
 */
export async function openInputStream(path: string, options: { highWaterMark?: number } = {}): Promise<{ stream: Readable; size: number }> {
  const { fd, stats } = openWithoutWaiting(path);
  return { stream: await streamOf(fd, stats, options.highWaterMark), size: stats.isFile() ? stats.size : 0 };
}

async function streamOf(fd: number, stats: Stats, highWaterMark?: number): Promise<Readable> {
  if (stats.isFIFO() || stats.isSocket()) {
    // A pipe handle needs the descriptor non-blocking, which it is; node:net loads only for a pipe.
    const { Socket } = await import('node:net');
    return new Socket({ fd, readable: true, writable: false });
  }
  return createReadStream('', { fd, ...(highWaterMark ? { highWaterMark } : {}) });
}

/** Reads a regular file synchronously, at most `maxBytes + 1` bytes (its size may lie: /proc, a growing log). */
function readRegularFile(fd: number, size: number, maxBytes: number): Buffer {
  if (size > maxBytes) throw new InputTooLargeError(maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = size + 1; ; want = 64 * 1024) {
    const chunk = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) throw new InputTooLargeError(maxBytes);
  }
}

/**
 * A whole file's bytes, up to `limits.maxBytes`. A regular file (the usual case) is read synchronously: a
 * thread-pool round trip and node:fs/promises would cost start-up. Anything else (a pipe, a FIFO, a device)
 * is read as a stream, capped and interruptible. Errors: InputTooLargeError, InputInterruptedError, and
 * those of node:fs (ENOENT, EISDIR, EACCES...).
 */
export async function readWholeFile(path: string, limits: ReadLimits): Promise<Buffer> {
  const { fd, stats } = openWithoutWaiting(path);
  if (stats.isFile()) {
    try {
      return readRegularFile(fd, stats.size, limits.maxBytes);
    } finally {
      closeSync(fd);
    }
  }
  // The same descriptor, never a second open: a FIFO's writer may be waiting for exactly this reader.
  return readStreamCapped(await streamOf(fd, stats), limits);
}

/**
 * Reads `stream` to its end, refusing more than `maxBytes` as soon as they arrive; the stream is destroyed
 * on refusal or on the signal, so a writer that never stops or never comes is let go.
 */
export async function readStreamCapped(stream: Readable, limits: ReadLimits): Promise<Buffer> {
  const { maxBytes } = limits;
  const unwatch = interruptOnSignal(stream, limits.signal);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const piece of stream as AsyncIterable<Buffer | string>) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      total += chunk.length;
      if (total > maxBytes) throw new InputTooLargeError(maxBytes);
      chunks.push(chunk);
    }
  } finally {
    unwatch();
  }
  return Buffer.concat(chunks, total);
}

/** Destroys `stream` with InputInterruptedError when `signal` aborts; returns the function that stops watching. */
export function interruptOnSignal(stream: Readable, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  const stop = () => stream.destroy(new InputInterruptedError());
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  return () => signal.removeEventListener('abort', stop);
}
