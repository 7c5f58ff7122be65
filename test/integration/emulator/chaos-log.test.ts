// The chaos mode, the request log and the event stream over real HTTP (docs/behaviour.md#chaos, issue 10 item 5).
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, fleetOf, type Emulator } from '../../../src/emulator/index.js';

const VALID = { type: 1, time_to_live: 3600, condition: { type: 2, client_ids: ['a', 'b'] }, notification: { title: 'Hello', desc: 'World' } };
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** One push with node:http, reporting a reset as such. */
function push(url: string, body: unknown): Promise<{ http: number; json: Record<string, unknown> } | 'reset'> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret', 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ http: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve('reset') : reject(error)));
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const getJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

describe('chaos faults', () => {
  it('503 is a gateway answer and 22001 the service one: neither is processed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-chaos-'));
    emu = await createEmulator({ port: 0, rate: 0, chaos: '503=100%', record: join(dir, 'r.jsonl') });
    expect(await push(emu.url, VALID)).toEqual({ http: 503, json: { status: 503, error: 'Service Unavailable' } });
    await fetch(`${emu.url}/v1/emulator/chaos`, { method: 'PUT', body: JSON.stringify({ spec: '22001=100%' }) });
    expect(await push(emu.url, VALID)).toMatchObject({ http: 200, json: { status: 22001 } });
    expect(emu.messages()).toHaveLength(0);
    await emu.close();
    expect(readFileSync(join(dir, 'r.jsonl'), 'utf8')).toBe('');
  });

  it('500 and reset come after processing: the message is delivered and recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-chaos-'));
    const record = join(dir, 'r.jsonl');
    emu = await createEmulator({ port: 0, rate: 0, chaos: '500=100%', record });
    expect(await push(emu.url, VALID)).toEqual({ http: 500, json: { status: 500, error: 'Internal Server Error' } });
    await fetch(`${emu.url}/v1/emulator/chaos`, { method: 'PUT', body: 'reset=100%' });
    expect(await push(emu.url, VALID)).toBe('reset');
    expect(emu.messages().map((m) => m.delivered)).toEqual([true, true]);
    await emu.close();
    expect(readFileSync(record, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('lists chaos answers in the request log, with the fault and whether it was processed', async () => {
    emu = await createEmulator({ port: 0, rate: 0, chaos: '500=100%' });
    await push(emu.url, VALID);
    const page = (await getJson(`${emu.url}/v1/emulator/requests`)) as { entries: Record<string, unknown>[] };
    expect(page.entries[0]).toMatchObject({ outcome: 'chaos', status: 500, http_status: 500, delivered: true, chaos: { fault: '500', processed: true } });
  });

  it('GET and PUT /v1/emulator/chaos read and change it while running; a bad spec is HTTP 400 naming the part', async () => {
    emu = await createEmulator({ port: 0, chaos: '503=5%', chaosSeed: 9 });
    expect(await getJson(`${emu.url}/v1/emulator/chaos`)).toMatchObject({ spec: '503=5%', seed: 9, requests: 0 });
    const bad = await fetch(`${emu.url}/v1/emulator/chaos`, { method: 'PUT', body: '{"spec":"teapot=5%"}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('unknown fault "teapot"');
    await fetch(`${emu.url}/v1/emulator/chaos`, { method: 'PUT', body: '{"spec":"off"}' });
    expect(await getJson(`${emu.url}/v1/emulator/chaos`)).toMatchObject({ spec: '' });
  });
});

describe('request log and events', () => {
  it('lists accepted, dry-run and rejected requests newest first, with reasons, filters and paging', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    await push(emu.url, VALID);
    await push(emu.url, { ...VALID, dry_run: true });
    await push(emu.url, { ...VALID, notification: { title: 'x', small_icon_color: 'red' } });
    await push(emu.url, { type: 2, time_to_live: 60, condition: { type: 0 }, data: { k: 'v' } });
    const page = (await getJson(`${emu.url}/v1/emulator/requests`)) as { entries: Record<string, unknown>[]; total: number };
    expect(page.total).toBe(4);
    expect(page.entries.map((e) => e.outcome)).toEqual(['accepted', 'rejected', 'dry_run', 'accepted']);
    expect(page.entries[1]).toMatchObject({ status: 21005, errors: [{ path: 'notification.small_icon_color' }] });
    const data = (await getJson(`${emu.url}/v1/emulator/requests?kind=data`)) as { entries: unknown[] };
    expect(data.entries).toHaveLength(1);
    const found = (await getJson(`${emu.url}/v1/emulator/requests?q=HELLO&outcome=accepted`)) as { entries: unknown[] };
    expect(found.entries).toHaveLength(1);
    const first = (await getJson(`${emu.url}/v1/emulator/requests?limit=3`)) as { entries: { seq: number }[]; next_before: number };
    const rest = (await getJson(`${emu.url}/v1/emulator/requests?limit=3&before=${first.next_before}`)) as { entries: { seq: number }[]; next_before: null };
    expect([...first.entries, ...rest.entries].map((e) => e.seq)).toEqual([4, 3, 2, 1]);
    expect(rest.next_before).toBeNull();
  });

  it('streams a new request and a clear as Server-Sent Events', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    const controller = new AbortController();
    const res = await fetch(`${emu.url}/v1/emulator/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) text += decoder.decode((await reader.read()).value);
    };
    await until(': connected');
    await push(emu.url, VALID);
    await until('event: request');
    await fetch(`${emu.url}/v1/emulator/messages`, { method: 'DELETE' });
    await until('event: cleared');
    expect(text).toMatch(/data: \{"seq":1,.*"outcome":"accepted"/);
    controller.abort();
    expect(((await getJson(`${emu.url}/v1/emulator/requests`)) as { total: number }).total).toBe(0);
  });
});

describe('bounded by bytes, and never killed by a request', () => {
  it('140 messages of 4 MiB, then the list: the process answers and keeps within its byte bound', async () => {
    emu = await createEmulator({ port: 0, rate: 0, maxBodyBytes: 5 * 1024 * 1024, keepBytes: 32 * 1024 * 1024, logBytes: 16 * 1024 * 1024 });
    // The service documents no length limit on a title, so a 4 MiB one is a valid message.
    const big = { ...VALID, notification: { title: 'x'.repeat(4 * 1024 * 1024 + 10), desc: 'big' } };
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    for (let i = 0; i < 140; i++) expect(await push(emu.url, text)).toMatchObject({ http: 200, json: { status: 200 } });
    const list = await fetch(`${emu.url}/v1/emulator/messages`);
    expect(list.status).toBe(200);
    const json = (await list.json()) as { accepted: number; kept: number };
    expect(json.accepted).toBe(140);
    expect(json.kept).toBeLessThan(10);
    const requests = await fetch(`${emu.url}/v1/emulator/requests?limit=500`);
    expect(requests.status).toBe(200);
  }, 120_000);

  it('a route that throws answers HTTP 500 and the emulator goes on serving', async () => {
    let calls = 0;
    emu = await createEmulator({ port: 0, rate: 0, fleet: Object.assign(fleetOf([]), { audience: () => { calls += 1; throw new Error('fleet exploded'); } }) });
    const failed = await push(emu.url, VALID);
    expect(failed).toMatchObject({ http: 500, json: { message: 'emulator internal error: fleet exploded' } });
    expect(calls).toBe(1);
    expect((await fetch(`${emu.url}/v1/emulator/health`)).status).toBe(200);
  });
});
