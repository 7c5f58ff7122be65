import { describe, expect, it } from 'vitest';
import { MessageStore, type StoredMessage } from '../../../src/emulator/store.js';

const message = (n: number, app = 'a', ids = 0): StoredMessage => ({
  app_id: app,
  message_id: `m${n}`,
  received_at: new Date(n).toISOString(),
  dry_run: false,
  delivered: true,
  body: {
    type: 1,
    time_to_live: 60,
    condition: ids > 0 ? { type: 2, client_ids: Array.from({ length: ids }, (_, i) => `c${i}`) } : { type: 0 },
  },
});

describe('MessageStore', () => {
  it('lists oldest first, filters by app and limits to the newest', () => {
    const store = new MessageStore();
    [message(1, 'a'), message(2, 'b'), message(3, 'a')].forEach((m) => store.add(m, 100));
    expect(store.list().map((m) => m.message_id)).toEqual(['m1', 'm2', 'm3']);
    expect(store.list('a').map((m) => m.message_id)).toEqual(['m1', 'm3']);
    expect(store.list('a', 1).map((m) => m.message_id)).toEqual(['m3']);
    expect(store.list('nobody')).toEqual([]);
    expect(store.stats('a')).toEqual({ accepted: 2, kept: 2, dropped: 0 });
  });

  it('drops the oldest beyond `keep` messages and counts what it dropped', () => {
    const store = new MessageStore({ keep: 100 });
    for (let i = 0; i < 5000; i += 1) store.add(message(i), 100);
    const kept = store.list();
    expect(kept).toHaveLength(100);
    expect(kept[0]?.message_id).toBe('m4900');
    expect(kept[99]?.message_id).toBe('m4999');
    expect(store.stats()).toEqual({ accepted: 5000, kept: 100, dropped: 4900 });
  });

  it('bounds the client IDs kept, but always keeps the newest message', () => {
    const store = new MessageStore({ keepClientIds: 2500 });
    for (let i = 0; i < 10; i += 1) store.add(message(i, 'a', 1000), 100);
    expect(store.list().map((m) => m.message_id)).toEqual(['m8', 'm9']);
    store.add(message(10, 'a', 5000), 100);
    expect(store.list().map((m) => m.message_id)).toEqual(['m10']);
  });

  it('writes every message to the sink as one JSON line, even those dropped from memory', () => {
    const lines: string[] = [];
    const store = new MessageStore({ keep: 1, sink: (line) => lines.push(line) });
    store.add(message(1), 100);
    store.add(message(2), 100);
    expect(lines.map((l) => (JSON.parse(l) as StoredMessage).message_id)).toEqual(['m1', 'm2']);
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('bounds the bytes kept by what each message costs, as it is told, and lists newest first without copying', () => {
    const store = new MessageStore({ keepBytes: 1000 });
    for (let i = 0; i < 10; i += 1) store.add(message(i), 300);
    expect(store.list().map((m) => m.message_id)).toEqual(['m7', 'm8', 'm9']);
    expect([...store.newestFirst()].map((m) => m.message_id)).toEqual(['m9', 'm8', 'm7']);
  });

  it('clears one app or everything', () => {
    const store = new MessageStore();
    [message(1, 'a'), message(2, 'b'), message(3, 'a')].forEach((m) => store.add(m, 100));
    expect(store.clear('a')).toBe(2);
    expect(store.list().map((m) => m.message_id)).toEqual(['m2']);
    expect(store.stats()).toEqual({ accepted: 1, kept: 1, dropped: 0 });
    expect(store.clear()).toBe(1);
    expect(store.stats()).toEqual({ accepted: 0, kept: 0, dropped: 0 });
  });
});
