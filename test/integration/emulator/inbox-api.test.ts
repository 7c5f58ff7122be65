// What the inbox page reads of the emulator's API (issue 22), over real HTTP: a dry run's audience, the
// count of what a filter selects, the device list paged to its end, and the page's own files.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, syntheticFleet, type Emulator } from '../../../src/emulator/index.js';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const getJson = async <T>(url: string) => (await (await fetch(url)).json()) as T;
const push = (url: string, body: unknown) =>
  fetch(`${url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret' }, body: JSON.stringify(body) }).then((r) => r.json());
const message = (title: string, extra: object = {}) => ({ type: 1, time_to_live: 60, condition: { type: 1, targeting: { country: ['US'] } }, notification: { title }, ...extra });

describe('the API under the inbox page', () => {
  it('a dry run says whom it would reach, counted by the rules a delivery uses, and delivers to no one', async () => {
    emu = await createEmulator({ port: 0, rate: 0, fleet: syntheticFleet(1000) });
    await push(emu.url, message('real'));
    await push(emu.url, message('rehearsal', { dry_run: true }));
    await push(emu.url, { ...message('listed', { dry_run: true }), condition: { type: 2, client_ids: ['device-000001', 'nobody'] } });
    const { entries } = await getJson<{ entries: Record<string, unknown>[] }>(`${emu.url}/v1/emulator/requests`);
    const [listed, rehearsal, real] = entries;
    expect(real).toMatchObject({ outcome: 'accepted', fleet_size: 1000 });
    expect(rehearsal).toMatchObject({ outcome: 'dry_run', would_reach: real!.reached, unknown_client_ids: 0, fleet_size: 1000 });
    expect(rehearsal).not.toHaveProperty('reached');
    expect(listed).toMatchObject({ would_reach: 1, unknown_client_ids: 1 });
    const devices = await getJson<{ devices: { inbox: number }[] }>(`${emu.url}/v1/emulator/devices/device-000001`);
    expect(devices).toMatchObject({ inbox: [] });
  });

  it('a device listed twice is reached once: in the request log, the message list and for a dry run', async () => {
    emu = await createEmulator({ port: 0, rate: 0, fleet: syntheticFleet(10) });
    const twice = { type: 2, client_ids: ['device-000001', 'device-000001', 'nobody', 'nobody'] };
    await push(emu.url, { ...message('twice'), condition: twice });
    await push(emu.url, { ...message('twice, rehearsed', { dry_run: true }), condition: twice });
    const { entries } = await getJson<{ entries: Record<string, unknown>[] }>(`${emu.url}/v1/emulator/requests`);
    expect(entries.map((e) => [e.reached ?? e.would_reach, e.unknown_client_ids])).toEqual([[1, 1], [1, 1]]);
    expect(emu.messages().map((m) => m.reached ?? m.would_reach)).toEqual([1, 1]);
    const audience = await getJson(`${emu.url}/v1/emulator/audience?${new URLSearchParams({ condition: JSON.stringify(twice) })}`);
    expect(audience).toMatchObject({ reached: 1, unknown_client_ids: 1 });
  });

  it("a rejected entry keeps the service's reason, which the answer gave: the inbox can say why", async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    const answers = [
      await fetch(`${emu.url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret' }, body: '{oops' }).then((r) => r.json()),
      await fetch(`${emu.url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'Bearer demo-secret' }, body: '{}' }).then((r) => r.json()),
      await push(emu.url, message('fine')),
    ] as { message: string }[];
    const { entries } = await getJson<{ entries: Record<string, unknown>[] }>(`${emu.url}/v1/emulator/requests`);
    expect(entries.map((e) => e.message)).toEqual([undefined, answers[1]!.message, answers[0]!.message]);
    expect(answers[0]!.message).toMatch(/not valid JSON/);
  });

  it('an outcome filter that names no outcome is refused, naming the four, rather than matching nothing', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    await push(emu.url, message('delivered one'));
    // "delivered" is what the page calls an accepted message: a natural guess, which silently listed nothing.
    const answer = await fetch(`${emu.url}/v1/emulator/requests?outcome=delivered`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toBe('outcome must be accepted, dry_run, rejected or chaos, got "delivered"');
    expect((await getJson<{ matched: number }>(`${emu.url}/v1/emulator/requests?outcome=accepted`)).matched).toBe(1);
  });

  it('the request list counts what its filters select, on every page', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    for (let i = 0; i < 7; i++) await push(emu.url, message(i % 2 ? `odd ${i}` : `even ${i}`));
    await push(emu.url, { type: 9 });
    const page = await getJson<{ entries: unknown[]; total: number; matched: number; next_before: number }>(`${emu.url}/v1/emulator/requests?q=odd&limit=2`);
    expect([page.entries.length, page.matched, page.total]).toEqual([2, 3, 8]);
    const next = await getJson<{ entries: unknown[]; matched: number }>(`${emu.url}/v1/emulator/requests?q=odd&limit=2&before=${page.next_before}`);
    expect([next.entries.length, next.matched]).toEqual([1, 3]);
    expect((await getJson<{ matched: number }>(`${emu.url}/v1/emulator/requests?outcome=rejected`)).matched).toBe(1);
  });

  it('says the newest request answered when the list was read, whatever the filters and the page: what a live reader has already', async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
    expect((await getJson<{ last_seq: number }>(`${emu.url}/v1/emulator/requests`)).last_seq).toBe(0);
    for (let i = 0; i < 5; i++) await push(emu.url, message(`title ${i}`));
    const page = await getJson<{ entries: { seq: number }[]; last_seq: number }>(`${emu.url}/v1/emulator/requests?q=title%200&limit=1`);
    expect(page.entries.map((e) => e.seq)).toEqual([1]);
    expect(page.last_seq).toBe(5);
  });

  it('the device list pages to device 1,000 with its total', async () => {
    emu = await createEmulator({ port: 0, rate: 0, fleet: syntheticFleet(1000) });
    const last = await getJson<{ devices: { client_id: string }[]; total: number; next_offset: number | null }>(`${emu.url}/v1/emulator/devices?offset=900&limit=100`);
    expect([last.total, last.devices.length, last.devices.at(-1)!.client_id, last.next_offset]).toEqual([1000, 100, 'device-001000', null]);
  });

  it("serves the page's files from a fixed table, each under the page's CSP; any other path is not a file", async () => {
    emu = await createEmulator({ port: 0 });
    for (const path of ['/', '/index.html', '/inbox.js', '/inbox.css', '/favicon.svg']) {
      const answer = await fetch(`${emu.url}${path}`);
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    for (const path of ['/inbox.ts', '/../package.json', '/web/inbox.js', '/%2e%2e/package.json']) expect((await fetch(`${emu.url}${path}`)).status).toBe(404);
  });
});
