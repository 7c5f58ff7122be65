import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ClientIdCollector } from '../../../src/client/client-id-store.js';
import { ClientIdFeed, feedClientIds } from '../../../src/input/client-id-feed.js';

const lines = (from: number, n: number) => Array.from({ length: n }, (_, i) => `id-${from + i}\n`).join('');
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('feedClientIds', () => {
  it('gives the whole list when the input ends before the point where it would stream', async () => {
    const input = new PassThrough();
    input.end(lines(0, 5));
    const list = await feedClientIds(input, new ClientIdCollector(), { streamAfter: 10 });
    expect(list).not.toBeInstanceOf(ClientIdFeed);
    expect([...('ids' in list ? list.ids : [])]).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4']);
  });

  it('gives a feed once enough IDs are in; reading waits for release, then grows to the end', async () => {
    const input = new PassThrough();
    input.write(lines(0, 12));
    const feed = (await feedClientIds(input, new ClientIdCollector(), { streamAfter: 10 })) as ClientIdFeed;
    expect(feed).toBeInstanceOf(ClientIdFeed);
    expect(feed.length).toBe(12);
    let changes = 0;
    feed.onChange(() => changes++);
    input.end(`${lines(12, 3)}id-0\n`);
    await tick();
    await tick();
    // Held: nothing more is read until the send has started.
    expect(feed.length).toBe(12);
    feed.release();
    await new Promise<void>((resolve) => feed.onChange(() => feed.settled && resolve()));
    expect(feed.length).toBe(15);
    expect(feed.list?.duplicates).toBe(1);
    expect(feed.slice(10, 15)).toEqual(['id-10', 'id-11', 'id-12', 'id-13', 'id-14']);
    expect(changes).toBeGreaterThan(0);
  });

  it('a bad line after the feed began is its failure, not a rejection', async () => {
    const input = new PassThrough();
    input.write(lines(0, 12));
    const feed = (await feedClientIds(input, new ClientIdCollector(), { streamAfter: 10 })) as ClientIdFeed;
    feed.release();
    input.end('bad\u0001id\n');
    await new Promise<void>((resolve) => feed.onChange(() => feed.settled && resolve()));
    expect(String(feed.failure)).toContain('line 13');
    expect(feed.list).toBeUndefined();
  });

  it('a bad line before it would stream is thrown', async () => {
    const input = new PassThrough();
    input.end(`${lines(0, 3)}bad\u0001id\n`);
    await expect(feedClientIds(input, new ClientIdCollector(), { streamAfter: 10 })).rejects.toThrow(/line 4/);
  });

  it('cancel stops reading and settles the feed without a failure', async () => {
    const input = new PassThrough();
    input.write(lines(0, 12));
    const feed = (await feedClientIds(input, new ClientIdCollector(), { streamAfter: 10 })) as ClientIdFeed;
    feed.cancel();
    expect(feed.settled).toBe(true);
    expect(input.destroyed).toBe(true);
    expect(feed.failure).toBeUndefined();
  });
});
