import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type StoredMessage } from '../../../src/emulator/index.js';

const VALID = { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'World' } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `client-${i}`);

interface Reply {
  http: number;
  headers: Headers;
  json: { status: number; message: string; result?: { message_id: string }; errors?: { path: string }[] } & Record<string, unknown>;
}

async function push(emu: Emulator, app: string, body: unknown, secret: string | null = 'demo-secret'): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret !== null) headers.authorization = secret;
  const res = await fetch(`${emu.url}/v1/message/push/${app}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { http: res.status, headers: res.headers, json: (await res.json()) as Reply['json'] };
}

describe('emulator over HTTP', () => {
  let emu: Emulator;
  const logs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-emu-'));
  const record = join(dir, 'messages.jsonl');

  beforeAll(async () => {
    emu = await createEmulator({
      port: 0,
      apps: [
        { id: 'demo-app', secret: 'demo-secret' },
        { id: 'other', secret: 'other-secret' },
        { id: 'off', secret: 'off-secret', disabled: true },
        { id: 'slow', secret: 'slow-secret' },
      ],
      rate: 1000,
      record,
      log: (line) => logs.push(line),
    });
  });
  afterAll(() => emu.close());

  it('listens on loopback with a URL to give pushctl', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('accepts a valid message: HTTP 200 and the documented body', async () => {
    const reply = await push(emu, 'demo-app', VALID);
    expect(reply.http).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.json).toEqual({ status: 200, message: 'OK', result: { message_id: expect.any(String) } });
  });

  it('answers 21001 when the app ID is missing', async () => {
    expect((await push(emu, '', VALID)).json.status).toBe(21001);
  });

  it('answers 21002 for an unknown app', async () => {
    expect((await push(emu, 'nobody', VALID)).json).toMatchObject({ status: 21002, message: expect.stringContaining('nobody') });
  });

  it('answers 21003 without an Authorization header and 21004 with a wrong secret', async () => {
    expect((await push(emu, 'demo-app', VALID, null)).json.status).toBe(21003);
    expect((await push(emu, 'demo-app', VALID, 'other-secret')).json.status).toBe(21004);
  });

  it('answers 21005 for malformed JSON, an empty body, a non-object and an invalid message', async () => {
    expect((await push(emu, 'demo-app', '{"type": 1,')).json).toMatchObject({ status: 21005, message: expect.stringContaining('not valid JSON') });
    expect((await push(emu, 'demo-app', '')).json).toMatchObject({ status: 21005, message: expect.stringContaining('empty') });
    expect((await push(emu, 'demo-app', '"text"')).json).toMatchObject({ status: 21005, message: expect.stringContaining('JSON object') });
    const invalid = await push(emu, 'demo-app', { ...VALID, time_to_live: 0, condition: { type: 1 } });
    expect(invalid.http).toBe(200);
    expect(invalid.json.status).toBe(21005);
    expect(invalid.json.message).toMatch(/time_to_live: .*; condition\.targeting: /);
  });

  it('answers 21006 for 1001 client IDs and accepts 1000', async () => {
    const over = await push(emu, 'demo-app', { ...VALID, condition: { type: 2, client_ids: ids(1001) } });
    expect(over.json).toMatchObject({ status: 21006, message: expect.stringContaining('1001 client IDs') });
    expect((await push(emu, 'demo-app', { ...VALID, condition: { type: 2, client_ids: ids(1000) } })).json.status).toBe(200);
  });

  it('answers 21007 for a disabled app', async () => {
    expect((await push(emu, 'off', VALID, 'off-secret')).json.status).toBe(21007);
  });

  it('stores a dry run as not delivered', async () => {
    const reply = await push(emu, 'other', { ...VALID, dry_run: true }, 'other-secret');
    expect(reply.json.status).toBe(200);
    const stored = emu.messages('other').find((m) => m.message_id === reply.json.result?.message_id);
    expect(stored).toMatchObject({ app_id: 'other', dry_run: true, delivered: false });
  });

  it('lists accepted messages at GET /v1/emulator/messages, filtered by app', async () => {
    const all = (await (await fetch(`${emu.url}/v1/emulator/messages`)).json()) as { messages: StoredMessage[] };
    expect(all.messages.length).toBeGreaterThanOrEqual(3);
    const res = await fetch(`${emu.url}/v1/emulator/messages?app=other`);
    const other = (await res.json()) as { status: number; messages: StoredMessage[] };
    expect(res.status).toBe(200);
    expect(other.status).toBe(200);
    expect(other.messages.length).toBeGreaterThan(0);
    expect(other.messages.every((m) => m.app_id === 'other')).toBe(true);
  });

  it('answers a wrong method and an unknown path with JSON errors', async () => {
    const get = await fetch(`${emu.url}/v1/message/push/demo-app`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ status: 405 });
    const unknown = await fetch(`${emu.url}/v2/whatever`, { method: 'POST', body: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, message: expect.stringContaining('/v1/message/push/{AppID}') });
  });

  it('answers a request with a broken header or body without crashing', async () => {
    const raw = await new Promise<number>((resolve, reject) => {
      const req = request(`${emu.url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(Buffer.from([0xff, 0xfe, 0x00, 0x7b]));
    });
    expect(raw).toBe(200);
    expect((await push(emu, 'demo-app', VALID)).json.status).toBe(200);
  });

  it('logs one line per request, without the secret', () => {
    expect(logs.length).toBeGreaterThan(10);
    expect(logs.some((l) => l.includes('POST /v1/message/push/demo-app -> 200 '))).toBe(true);
    expect(logs.some((l) => l.includes('-> 21004'))).toBe(true);
    expect(logs.join('\n')).not.toMatch(/demo-secret|other-secret|off-secret/);
  });

  it('appends every accepted message to the record file as JSON Lines', async () => {
    await emu.close();
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    const recorded = lines.map((l) => JSON.parse(l) as StoredMessage);
    expect(recorded.map((m) => m.message_id)).toEqual(emu.messages().map((m) => m.message_id));
    expect(recorded.some((m) => m.dry_run && !m.delivered)).toBe(true);
  });
});

describe('emulator rate limit', () => {
  it('answers 22001 with Retry-After to a burst over the rate', async () => {
    // A frozen clock puts the whole burst in one window, whatever the speed of the machine.
    const emu = await createEmulator({ port: 0, rate: 5, now: () => 1_700_000_000_000 });
    try {
      const replies = await Promise.all(Array.from({ length: 12 }, () => push(emu, 'demo-app', VALID)));
      const statuses = replies.map((r) => r.json.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 22001)).toHaveLength(7);
      const limited = replies.find((r) => r.json.status === 22001);
      expect(limited?.headers.get('retry-after')).toBe('1');
    } finally {
      await emu.close();
    }
  });
});

describe('emulator defaults and options', () => {
  it('serves the demo app when no apps are given', async () => {
    const emu = await createEmulator({ port: 0 });
    try {
      expect(emu.apps).toEqual([{ id: 'demo-app', secret: 'demo-secret' }]);
      expect((await push(emu, 'demo-app', VALID)).json.status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('answers 21005 to a body over maxBodyBytes and keeps serving on the same connection', async () => {
    const emu = await createEmulator({ port: 0, maxBodyBytes: 1024 });
    try {
      const big = await push(emu, 'demo-app', { ...VALID, condition: { type: 2, client_ids: ids(500) } });
      expect(big.json).toMatchObject({ status: 21005, message: expect.stringContaining('larger than 1024 bytes') });
      expect((await push(emu, 'demo-app', VALID)).json.status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('refuses a bound that is not a whole number (NaN kept everything: memory without a bound)', async () => {
    for (const option of ['keep', 'keepClientIds', 'keepBytes', 'logBytes'] as const) {
      for (const value of [Number.NaN, -5, 1.5]) {
        await expect(createEmulator({ port: 0, [option]: value }), `${option}: ${value}`).rejects.toThrow(new RegExp(`^${option} must be a whole number of 0 or more, got ${value}$`));
      }
    }
  });

  it('refuses a record file it cannot open, before listening', async () => {
    await expect(createEmulator({ port: 0, record: join(tmpdir(), 'no-such-dir-pushctl', 'x.jsonl') })).rejects.toThrow(/cannot open record file/);
  });

  it('closes promptly even with an idle keep-alive connection open, and close() is idempotent', async () => {
    const emu = await createEmulator({ port: 0 });
    await push(emu, 'demo-app', VALID);
    await Promise.all([emu.close(), emu.close()]);
    await expect(fetch(`${emu.url}/v1/emulator/health`)).rejects.toThrow();
  });
});

describe('emulator URL', () => {
  it('gives a loopback URL when listening on every interface', async () => {
    const emu = await createEmulator({ port: 0, host: '0.0.0.0' });
    try {
      expect(emu.url).toBe(`http://127.0.0.1:${emu.port}`);
      expect((await fetch(`${emu.url}/v1/emulator/health`)).status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});
