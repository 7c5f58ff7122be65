import { describe, expect, it } from 'vitest';
import { Fleet } from '../../../src/emulator/devices/fleet.js';
import { parseDevices, syntheticFleet } from '../../../src/emulator/devices/load-devices.js';
import { reaches, type Device } from '../../../src/emulator/devices/match.js';
import type { StoredMessage } from '../../../src/emulator/store.js';

const device = (over: Partial<Device>): Device => ({ client_id: 'd', country: 'GB', language: 'en-GB', brand: 'Samsung', model: 'Galaxy S23', os_version: '33', app_version: '3.1.0', ...over });
const targeting = (t: Record<string, string[]>) => ({ type: 1 as const, targeting: t });

describe('reaches: the table of SPEC section 9', () => {
  it.each([
    ['type 0 reaches every device', device({}), { type: 0 as const }, true],
    ['type 2 reaches a listed client ID', device({ client_id: 'a' }), { type: 2 as const, client_ids: ['a', 'b'] }, true],
    ['type 2 does not reach an unlisted one', device({ client_id: 'c' }), { type: 2 as const, client_ids: ['a', 'b'] }, false],
    ['an empty targeting restricts nothing', device({}), targeting({}), true],
    ['an empty list restricts nothing', device({}), targeting({ country: [] }), true],
    ['country equal, upper case', device({ country: 'GB' }), targeting({ country: ['gb'] }), true],
    ['country not listed', device({ country: 'GB' }), targeting({ country: ['US', 'FR'] }), false],
    ['a bare language reaches its regions', device({ language: 'en-GB' }), targeting({ language: ['en'] }), true],
    ['en-GB does not reach en-US', device({ language: 'en-US' }), targeting({ language: ['en-GB'] }), false],
    ['en-GB does not reach bare en', device({ language: 'en' }), targeting({ language: ['en-GB'] }), false],
    ['language tags compare case-insensitively, _ as -', device({ language: 'zh_cn' }), targeting({ language: ['zh-CN'] }), true],
    ['a bare language does not reach another starting alike', device({ language: 'eng' }), targeting({ language: ['en'] }), false],
    ['brand upper-cased without spaces on both sides', device({ brand: 'One Plus' }), targeting({ brand: ['ONEPLUS'] }), true],
    ['model upper-cased without spaces on both sides', device({ model: 'Galaxy S23' }), targeting({ model: ['galaxys23'] }), true],
    ['os_version as whole numbers', device({ os_version: '33' }), targeting({ os_version: ['033'] }), true],
    ['os_version different', device({ os_version: '33' }), targeting({ os_version: ['34'] }), false],
    ['app_version equal as strings only', device({ app_version: '3.1.0' }), targeting({ app_version: ['3.1'] }), false],
    ['every non-empty criterion must match', device({ country: 'GB', language: 'en-GB' }), targeting({ country: ['GB'], language: ['fr'] }), false],
    ['one entry of each list is enough', device({ country: 'GB', brand: 'Xiaomi' }), targeting({ country: ['US', 'GB'], brand: ['Samsung', 'Xiaomi'] }), true],
  ])('%s', (_name, d, condition, expected) => {
    expect(reaches(d, condition)).toBe(expected);
  });
});

describe('devices files', () => {
  it('reads a JSON array and a CSV with the documented header', () => {
    const json = parseDevices(JSON.stringify([{ client_id: 'a', country: 'US', language: 'en-US', brand: 'Google', model: 'Pixel 7', os_version: 34, app_version: '1.0' }]));
    expect(json[0]).toMatchObject({ client_id: 'a', os_version: '34' });
    const csv = parseDevices('client_id,country,language,brand,model,os_version,app_version\nb,GB,en-GB,Samsung,SM-A546B,33,1.0\n');
    expect(csv).toEqual([{ client_id: 'b', country: 'GB', language: 'en-GB', brand: 'Samsung', model: 'SM-A546B', os_version: '33', app_version: '1.0' }]);
  });

  it.each([
    ['client,country\na,US', 'line 1: a CSV devices file starts with the header'],
    ['client_id,country,language,brand,model,os_version,app_version\na,US', 'line 2: 2 fields, expected 7'],
    ['[{"country":"US"}]', 'device 1: client_id must be a non-empty string'],
    ['[{"client_id":"a"},{"client_id":"a"}]', 'client_id "a" appears twice'],
    ['[1,', 'not valid JSON'],
  ])('names the line or device and the field: %s', (text, message) => {
    expect(() => parseDevices(text)).toThrow(message);
  });
});

describe('Fleet', () => {
  const message = (condition: StoredMessage['body']['condition'], dry = false): StoredMessage => ({
    app_id: 'app', message_id: 'm1', received_at: '2026-11-22T00:00:00.000Z', dry_run: dry, delivered: !dry,
    body: { type: 1, time_to_live: 60, condition, notification: { title: 'Hi' } } as StoredMessage['body'],
  });

  it('counts reached devices and unknown client IDs, and fills each device inbox', () => {
    const fleet = new Fleet([device({ client_id: 'a', country: 'GB' }), device({ client_id: 'b', country: 'US' })]);
    expect(fleet.deliver(message({ type: 2, client_ids: ['a', 'zzz'] }))).toEqual({ reached: 1, unknown_client_ids: 1, fleet_size: 2 });
    expect(fleet.deliver(message({ type: 1, targeting: { country: ['US'] } }))).toEqual({ reached: 1, unknown_client_ids: 0, fleet_size: 2 });
    expect(fleet.device('a')!.inbox.map((m) => m.title)).toEqual(['Hi']);
    expect(fleet.list({ q: 'us' }).devices.map((d) => d.client_id)).toEqual(['b']);
  });

  it('a synthetic fleet is the same for the same seed, with consistent country and language', () => {
    const a = syntheticFleet(2000, 5);
    expect(a).toEqual(syntheticFleet(2000, 5));
    expect(a).not.toEqual(syntheticFleet(2000, 6));
    expect(new Set(a.map((d) => d.client_id)).size).toBe(2000);
    for (const d of a) expect(d.language.endsWith(`-${d.country}`)).toBe(true);
    expect(new Set(a.map((d) => d.country)).size).toBeGreaterThan(10);
  });
});
