// The event stream's fan-out with readers that record what they are given: an entry is serialised once for
// every reader, and a reader that is behind skips entries instead of buffering them, then learns how many.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventFanout } from '../../../src/emulator/event-fanout.js';
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

  it('skips a reader that is 8 MiB behind, counts it, and tells it how many it missed once it drains', () => {
    const log = new RequestLog();
    const fanout = new EventFanout(log);
    const slow = new Reader();
    const fast = new Reader();
    fanout.add(slow);
    fanout.add(fast);
    slow.writableLength = 8 * 1024 * 1024;
    for (const title of ['a', 'b', 'c']) {
      log.add(entry(title));
      vi.runAllTimers();
    }
    expect(slow.chunks).toEqual([]);
    expect(fast.chunks).toHaveLength(3);
    expect(fanout.stats()).toEqual({ readers: 2, buffered_bytes: 8 * 1024 * 1024, skipped: 3 });
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
