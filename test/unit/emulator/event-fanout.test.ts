// The event stream's fan-out with readers that record what they are given: an entry is serialised once for
// every reader, and a reader that is behind skips entries instead of buffering them, then learns how many.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventFanout, SLAB_BYTES } from '../../../src/emulator/event-fanout.js';
import { RequestLog } from '../../../src/emulator/request-log.js';

class Reader extends EventEmitter {
  chunks: (Buffer | string)[] = [];
  writableLength = 0;
  ended = false;
  write(chunk: Buffer | string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  text(): string {
    return this.chunks.map(String).join('');
  }
}

const entry = (title: string) => ({ received_at: '2026-11-24T00:00:00.000Z', app_id: 'a', outcome: 'accepted' as const, status: 200, meaning: 'OK', http_status: 200, delivered: true, body: { type: 1, notification: { title } } });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('EventFanout', () => {
  it('writes the same serialised bytes to every reader: one Buffer, not one per reader', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    const readers = Array.from({ length: 1000 }, () => new Reader());
    for (const reader of readers) fanout.add(reader);
    log.add(entry('one'));
    log.add(entry('two'));
    vi.runAllTimers();
    const first = readers[0]!.chunks[0]!;
    expect(String(first)).toMatch(/^event: request\nid: 1\ndata: \{"seq":1,.*"title":"one".*\n\nevent: request\nid: 2\n/s);
    expect(readers.every((reader) => reader.chunks.length === 1 && reader.chunks[0] === first)).toBe(true);
  });

  it('gives a reader that joins mid-window only what is answered after it joined: the list it loaded has the rest', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    const early = new Reader();
    fanout.add(early);
    log.add(entry('before'));
    // The inbox page opens now: its list already counts "before", so the stream must not add it again.
    const late = new Reader();
    fanout.add(late);
    log.add(entry('after'));
    vi.runAllTimers();
    expect(early.text()).toMatch(/"title":"before".*"title":"after"/s);
    expect(late.text()).not.toContain('"title":"before"');
    expect(late.text()).toContain('"title":"after"');
  });

  it('skips a reader that is 4 MiB behind, counts it, and tells it how many it missed once it drains', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    const slow = new Reader();
    const fast = new Reader();
    fanout.add(slow);
    fanout.add(fast);
    slow.writableLength = 4 * 1024 * 1024;
    for (const title of ['a', 'b', 'c']) {
      log.add(entry(title));
      vi.runAllTimers();
    }
    expect(slow.chunks).toEqual([]);
    expect(fast.chunks).toHaveLength(3);
    expect(fanout.stats()).toEqual({ readers: 2, buffered_bytes: 4 * 1024 * 1024, skipped: 3 });
    slow.writableLength = 0;
    slow.emit('drain');
    expect(slow.text()).toBe('event: skipped\ndata: {"skipped":3}\n\n');
    log.add(entry('d'));
    vi.runAllTimers();
    expect(slow.text()).toContain('"title":"d"');
  });

  it('serialises nothing without readers, and ends every reader when the log closes', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    log.add(entry('nobody listens'));
    expect(vi.getTimerCount()).toBe(0);
    const reader = new Reader();
    fanout.add(reader);
    log.add(entry('last'));
    log.close();
    expect(reader.text()).toContain('"title":"last"');
    expect(reader.ended).toBe(true);
  });
});

describe('EventFanout window', () => {
  it('grows when writing to every reader takes long, so that pushes keep most of the time, and every reader still gets every event', () => {
    const log = new RequestLog();
    let clock = 0;
    const fanout = new EventFanout(log, () => clock);
    // Each write takes 62.5 µs: 1,000 readers take 62.5 ms, so the next window is 625 ms instead of 100 ms.
    class SlowReader extends Reader {
      override write(chunk: Buffer | string): boolean {
        clock += 1 / 16;
        return super.write(chunk);
      }
    }
    const readers = Array.from({ length: 1000 }, () => new SlowReader());
    for (const reader of readers) fanout.add(reader);
    log.add(entry('one'));
    vi.advanceTimersByTime(100);
    expect(readers.every((r) => r.chunks.length === 1)).toBe(true);
    log.add(entry('two'));
    log.add(entry('three'));
    vi.advanceTimersByTime(624);
    expect(readers.every((r) => r.chunks.length === 1)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(readers.every((r) => r.chunks.length === 2 && /"title":"two".*"title":"three"/s.test(String(r.chunks[1])))).toBe(true);
  });

  it('never waits longer than a second, and sends a full slab on the next turn of the loop', () => {
    const log = new RequestLog({ keepBytes: 64 * 1024 * 1024 });
    let clock = 0;
    const fanout = new EventFanout(log, () => clock);
    const reader = new Reader();
    reader.write = (chunk) => ((clock += 10_000), Reader.prototype.write.call(reader, chunk));
    fanout.add(reader);
    log.add(entry('slow'));
    vi.advanceTimersByTime(100);
    log.add(entry('late'));
    vi.advanceTimersByTime(1000);
    expect(reader.chunks).toHaveLength(2);
    const big = 'x'.repeat(SLAB_BYTES / 4);
    for (let i = 0; i < 4; i++) log.add(entry(big));
    expect(reader.chunks).toHaveLength(2);
    vi.advanceTimersByTime(1);
    // The fourth event did not fit the slab: the three that did are one write, and the fourth waits for the
    // window, at most a second.
    expect(reader.chunks.slice(2).map((chunk) => String(chunk).match(/event: request/g)?.length)).toEqual([3]);
    vi.advanceTimersByTime(900);
    expect(reader.chunks).toHaveLength(3);
    vi.advanceTimersByTime(100);
    expect(reader.chunks.slice(2).map((chunk) => String(chunk).match(/event: request/g)?.length)).toEqual([3, 1]);
    expect(reader.chunks.every((chunk) => chunk.length <= SLAB_BYTES)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('encodes events into one slab that later windows go on filling: no Buffer per event', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    const reader = new Reader();
    fanout.add(reader);
    // Past Node's 4 KiB pool size, each Buffer.from of an event would be an allocation of its own.
    const title = `${'y'.repeat(5000)} é 🚀`;
    log.add(entry(title));
    log.add(entry(title));
    vi.advanceTimersByTime(100);
    log.add(entry(title));
    vi.advanceTimersByTime(100);
    const [first, second] = reader.chunks as Buffer[];
    expect(reader.chunks).toHaveLength(2);
    expect(String(first).match(/event: request/g)).toHaveLength(2);
    expect(second!.buffer).toBe(first!.buffer);
    expect(second!.byteOffset).toBe(first!.byteOffset + first!.length);
    expect(JSON.parse(String(second).split('data: ')[1]!).body.notification.title).toBe(title);
  });
});
