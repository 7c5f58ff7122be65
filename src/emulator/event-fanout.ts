// The event stream's readers (`GET /v1/emulator/events`). Each request-log event is serialised once, and
// the events of a short window are sent together: one Buffer that every reader's socket shares, so a burst
// of pushes costs each reader one write per window rather than one per push. A reader that does not keep
// up is not buffered for without end: past READER_BUFFER_BYTES it skips events, and once its socket drains
// it is told how many it missed (`event: skipped`), so a page can reload the list.
import type { RequestLog, RequestLogEvent } from './request-log.js';

/** What the fan-out needs of a reader: node's ServerResponse is one. */
export interface EventReader {
  write(chunk: Buffer | string): boolean;
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
  end(): unknown;
}

/** Beyond this many bytes waiting for one reader, new events skip it until it drains. */
const READER_BUFFER_BYTES = 4 * 1024 * 1024;
/** Events are sent at most this often: a person sees no delay, and a burst becomes one write per reader. */
const FLUSH_MS = 100;
/**
 * With many readers a window's writes cost what the kernel takes per socket (about 20-50 µs on loopback,
 * 20-50 ms for 1,000 readers), whatever the batch holds: the window then grows so that writing takes at most
 * 1/FLUSH_SHARE of the time, and pushes keep the rest. Readers still get every event, later by at most
 * MAX_FLUSH_MS.
 */
const FLUSH_SHARE = 10;
const MAX_FLUSH_MS = 1000;
/**
 * A longer window holds more events: past this many bytes they are sent at once. A write of more than the
 * loopback's 64 KiB segment costs each reader several times as much per byte (measured: 1,000 writes of
 * 45 KB took 23-29 ms, of 200 KB 88-107 ms).
 */
const MAX_PENDING_BYTES = 64 * 1024;

export interface EventStreamStats {
  readers: number;
  /** Bytes written to readers and not yet taken by their sockets (a shared batch counts once per reader). */
  buffered_bytes: number;
  /** Events not written to a reader that was behind, since start. */
  skipped: number;
}

export class EventFanout {
  private readonly readers = new Map<EventReader, { skipped: number }>();
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The timer is set to send the batch now: it is past MAX_PENDING_BYTES. */
  private due = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private skippedTotal = 0;
  /** The next window: FLUSH_MS, or longer when the last window's writes took long. */
  private windowMs = FLUSH_MS;

  /** `now` times a window's writes (milliseconds; tests give a clock of their own). */
  constructor(
    log: RequestLog,
    private readonly now: () => number = () => performance.now(),
  ) {
    log.subscribe((event) => this.publish(event));
  }

  add(reader: EventReader): () => void {
    this.readers.set(reader, { skipped: 0 });
    return () => this.readers.delete(reader);
  }

  stats(): EventStreamStats {
    let buffered = 0;
    for (const reader of this.readers.keys()) buffered += reader.writableLength;
    return { readers: this.readers.size, buffered_bytes: buffered, skipped: this.skippedTotal };
  }

  private publish(event: RequestLogEvent): void {
    if (event.type === 'closed') {
      this.flush();
      for (const reader of this.readers.keys()) reader.end();
      this.readers.clear();
      return;
    }
    if (this.readers.size === 0) return;
    const bytes = Buffer.from(event.type === 'request' ? `event: request\nid: ${event.seq}\ndata: ${event.json}\n\n` : 'event: cleared\ndata: {}\n\n');
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    // Past the bound the batch leaves on the next turn of the loop, after the answer to this push.
    if (this.pendingBytes >= MAX_PENDING_BYTES && !this.due) {
      clearTimeout(this.timer);
      this.due = true;
      this.timer = setTimeout(() => this.flush(), 0);
    } else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
    if (this.pending.length === 0) return;
    const events = this.pending.length;
    const batch = events === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    const started = this.now();
    for (const [reader, state] of this.readers) {
      if (reader.writableLength < READER_BUFFER_BYTES) {
        reader.write(batch);
        continue;
      }
      this.skippedTotal += events;
      // The first skip arranges the notice; later ones only add to its count.
      if (state.skipped === 0) {
        reader.once('drain', () => {
          if (!this.readers.has(reader)) return;
          reader.write(`event: skipped\ndata: {"skipped":${state.skipped}}\n\n`);
          state.skipped = 0;
        });
      }
      state.skipped += events;
    }
    this.windowMs = Math.min(MAX_FLUSH_MS, Math.max(FLUSH_MS, (this.now() - started) * FLUSH_SHARE));
  }
}
