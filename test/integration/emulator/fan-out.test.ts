// The emulator fans out once (issue 20 item 5): every event-stream reader gets each entry, a reader that
// never reads holds a bounded amount of memory, and device inboxes live within what the emulator keeps.
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { fleetOf } from '../../../src/emulator/devices/fleet.js';
import type { Device } from '../../../src/emulator/devices/match.js';

const VALID = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } };
const MiB = 1024 * 1024;
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function push(url: string, body: unknown): Promise<number> {
  const res = await fetch(`${url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret' }, body: JSON.stringify(body) });
  return ((await res.json()) as { status: number }).status;
}
const getJson = async <T>(url: string) => (await (await fetch(url)).json()) as T;

/** Opens an event stream with its own connection; resolves once the server said it is connected. */
function openReader(url: string): Promise<{ res: IncomingMessage; text: () => string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request(`${url}/v1/emulator/events`, { agent: false }, (res) => {
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
        if (text.startsWith(': connected')) resolve({ res, text: () => text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const device = (id: string): Device => ({ client_id: id, country: 'GB', language: 'en-GB', brand: 'Google', model: 'Pixel 7', os_version: '34', app_version: '1.0' });

describe('event stream', () => {
  it('1,000 readers each receive every event of a burst of pushes, once and in order', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    const readers = [];
    for (let i = 0; i < 1000; i++) readers.push(await openReader(emu.url));
    const PUSHES = 20;
    const statuses = await Promise.all(Array.from({ length: PUSHES }, () => push(emu!.url, VALID)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const expected = Array.from({ length: PUSHES }, (_, i) => String(i + 1));
    const ids = (text: string) => [...text.matchAll(/event: request\nid: (\d+)\ndata: [^\n]*\n\n/g)].map((m) => m[1]!);
    const seen = await Promise.all(
      readers.map(
        (r) =>
          new Promise<string[]>((resolve) => {
            const check = () => (ids(r.text()).length >= PUSHES ? resolve(ids(r.text())) : setTimeout(check, 5));
            check();
          }),
      ),
    );
    for (const got of seen) expect(got).toEqual(expected);
    for (const r of readers) r.res.destroy();
  }, 60_000);

  it('a reader is sent the events themselves, unframed, on a stream that ends with the connection', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    const socket = connect(emu.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.write(`GET /v1/emulator/events HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const check = () => (text.includes(': connected\n\n') ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(await push(emu.url, VALID)).toBe(200);
    await new Promise<void>((resolve) => {
      const check = () => (text.includes('event: request') && text.endsWith('\n\n') ? resolve() : setTimeout(check, 5));
      check();
    });
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(head).not.toMatch(/transfer-encoding/i);
    expect(body).toMatch(/^: connected\n\nevent: request\nid: 1\ndata: \{"seq":1,[^\n]*\}\n\n$/);
    socket.destroy();
  });

  it('a reader that never reads holds at most 32 MiB, and learns what it skipped once it reads again', async () => {
    emu = await createEmulator({ port: 0, rate: 0, keepBytes: 16 * MiB, logBytes: 16 * MiB });
    // A raw socket that asks for the stream and then never reads: the kernel buffers fill, then the server's.
    const socket = connect(emu.port, '127.0.0.1');
    socket.write(`GET /v1/emulator/events HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    const big = { ...VALID, notification: { title: 'x'.repeat(MiB), desc: 'big' } };
    for (let i = 0; i < 80; i++) expect(await push(emu.url, big)).toBe(200);
    const health = await getJson<{ event_streams: { readers: number; buffered_bytes: number; skipped: number } }>(`${emu.url}/v1/emulator/health`);
    expect(health.event_streams.readers).toBe(1);
    expect(health.event_streams.buffered_bytes).toBeLessThanOrEqual(32 * MiB);
    expect(health.event_streams.skipped).toBeGreaterThan(0);
    // Reading again, the reader is told how many entries it missed, and then gets new ones.
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text = (text + d).slice(-4096)));
    socket.resume();
    await push(emu.url, VALID);
    await new Promise<void>((resolve) => {
      const check = () => (/event: skipped\ndata: \{"skipped":\d+/.test(text) || /"seq":81,/.test(text) ? resolve() : setTimeout(check, 10));
      check();
    });
    socket.destroy();
  }, 120_000);
});

describe('device inboxes live within what the emulator keeps', () => {
  it('a device inbox lists only messages still kept (count bound)', async () => {
    emu = await createEmulator({ port: 0, rate: 0, keep: 5, fleet: fleetOf([device('a'), device('b')]) });
    for (let i = 0; i < 12; i++) expect(await push(emu.url, { ...VALID, notification: { title: `n${i}` } })).toBe(200);
    const a = await getJson<{ inbox: { title: string }[] }>(`${emu.url}/v1/emulator/devices/a`);
    expect(a.inbox.map((m) => m.title)).toEqual(['n11', 'n10', 'n9', 'n8', 'n7']);
    const listed = await getJson<{ devices: { client_id: string; inbox: number }[] }>(`${emu.url}/v1/emulator/devices`);
    expect(listed.devices.map((d) => d.inbox)).toEqual([5, 5]);
  });

  it('--keep-mb evicts: large messages leave the device inboxes with the store (byte bound)', async () => {
    emu = await createEmulator({ port: 0, rate: 0, keepBytes: 2 * MiB, fleet: fleetOf([device('a')]) });
    for (let i = 0; i < 20; i++) expect(await push(emu.url, { ...VALID, notification: { title: `${i} ${'y'.repeat(256 * 1024)}` } })).toBe(200);
    const a = await getJson<{ inbox: { title: string }[] }>(`${emu.url}/v1/emulator/devices/a`);
    expect(a.inbox.length).toBeLessThanOrEqual(8);
    expect(a.inbox[0]!.title.startsWith('19 ')).toBe(true);
    expect(emu.stats().kept).toBe(a.inbox.length);
  });

  it('reached stays exact: --all, targeting, listed IDs; a dry run reaches no one but says whom it would', async () => {
    emu = await createEmulator({ port: 0, rate: 0, fleet: fleetOf([device('a'), { ...device('b'), country: 'US', language: 'en-US' }, device('c')]) });
    await push(emu.url, VALID);
    await push(emu.url, { ...VALID, condition: { type: 1, targeting: { country: ['US'] } } });
    await push(emu.url, { ...VALID, condition: { type: 2, client_ids: ['a', 'c', 'zzz'] } });
    await push(emu.url, { ...VALID, dry_run: true });
    expect(emu.messages().map((m) => [m.reached, m.unknown_client_ids, m.would_reach])).toEqual([
      [3, 0, undefined],
      [1, 0, undefined],
      [2, 1, undefined],
      [undefined, 0, 3],
    ]);
    const b = await getJson<{ inbox: unknown[] }>(`${emu.url}/v1/emulator/devices/b`);
    expect(b.inbox).toHaveLength(2);
  });
});
