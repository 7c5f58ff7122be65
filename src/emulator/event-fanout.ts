// The event stream's readers (`GET /v1/emulator/events`). Each request-log event is encoded once, and the
// events of a short window are sent together: one Buffer that every reader's socket shares, so a burst of
// pushes costs each reader one write per window rather than one per push. Events are encoded straight into
// a shared slab, each window sending the slab's next part: no Buffer, and no flattened copy of the text, per
// event. Per-event buffers of 10-60 KB, freed only by a later collection, had cost one reader 17-33 MiB of
// RSS under 1000-ID pushes on Node 24, whether it read or not. A reader that does not keep
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
 * Events are encoded into slabs of this size (or one event's, when larger), and a longer window sends what
 * filled a slab at once. What a reader costs is mostly the kernel's copy of every byte, plus about 5 µs a
 * write: with 1,000 readers of 3,000 small pushes, 256 KiB slabs slowed pushes 1.65-1.76x where 64 KiB
 * slabs gave 1.85-2.22x, and larger ones gained no more while holding more per window.
 */
export const SLAB_BYTES = 256 * 1024;

export interface EventStreamStats {
  readers: number;
  /** Bytes written to readers and not yet taken by their sockets (a shared batch counts once per reader). */
  buffered_bytes: number;
  /** Events not written to a reader that was behind, since start. */
  skipped: number;
}

export class EventFanout {
  private readonly readers = new Map<EventReader, { skipped: number }>();
  /** Where events are encoded: bytes before `sent` went out in earlier windows, `used` ends the window. */
  private slab = Buffer.alloc(0);
  private sent = 0;
  private used = 0;
  /** Parts of slabs that filled in this window, and how many events they hold. */
  private full: Buffer[] = [];
  private fullEvents = 0;
  /** Events in the current slab's part, from `sent` to `used`. */
  private events = 0;
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
    // What the window holds was answered before this reader came: a page that connects now loads those
    // entries with its list, and would count them twice if the stream sent them too. They go to the readers
    // that were there, now.
    if (this.events > 0 || this.full.length > 0) this.flush();
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
    if (event.type === 'request') this.append(`event: request\nid: ${event.seq}\ndata: `, event.json, '\n\n');
    else if (event.type === 'removed') this.append('event: removed\ndata: ', `{"seq":${event.seq},"entry":${event.json}}`, '\n\n');
    else this.append('event: cleared\ndata: {}\n\n', '', '');
    // A full slab's part leaves on the next turn of the loop, after the answer to this push; what follows it
    // waits for the window, so that each write is a slab's worth rather than a full part and a scrap.
    if (this.full.length > 0 && !this.due) {
      clearTimeout(this.timer);
      this.due = true;
      this.timer = setTimeout(() => this.flush(false), 0);
    } else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Encodes one event (ASCII head and tail around its JSON text) at the end of the window. */
  private append(head: string, json: string, tail: string): void {
    const size = head.length + Buffer.byteLength(json) + tail.length;
    if (this.used + size > this.slab.length) {
      if (this.used > this.sent) this.full.push(this.slab.subarray(this.sent, this.used));
      this.fullEvents += this.events;
      this.events = 0;
      // Not from Node's shared pool: a reader's socket may hold the slab long after this window.
      this.slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, size));
      this.sent = this.used = 0;
    }
    this.used += this.slab.write(head, this.used, 'latin1');
    this.used += this.slab.write(json, this.used);
    this.used += this.slab.write(tail, this.used, 'latin1');
    this.events++;
  }

  /** Sends the window's full parts, and with `all` the current slab's part too. */
  private flush(all = true): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
    const parts = this.full;
    let events = this.fullEvents;
    this.full = [];
    this.fullEvents = 0;
    if (all && this.events > 0) {
      parts.push(this.slab.subarray(this.sent, this.used));
      events += this.events;
      this.sent = this.used;
      this.events = 0;
    }
    if (events > 0) this.send(parts, events);
    // What followed a full slab goes with the next window.
    if (this.events > 0) this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  private send(parts: Buffer[], events: number): void {
    const started = this.now();
    for (const [reader, state] of this.readers) {
      if (reader.writableLength < READER_BUFFER_BYTES) {
        for (const part of parts) reader.write(part);
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
