import { describe, expect, it } from 'vitest';
import { fleetOf } from '../../../src/emulator/devices/fleet.js';
import { inboxOf, inboxSummaries } from '../../../src/emulator/devices/inbox.js';
import { parseDevices } from '../../../src/emulator/devices/load-devices.js';
import { syntheticFleet } from '../../../src/emulator/devices/synthetic.js';
import { reaches, type Device } from '../../../src/emulator/devices/match.js';
import type { StoredMessage } from '../../../src/emulator/store.js';

const device = (over: Partial<Device>): Device => ({ client_id: 'd', country: 'GB', language: 'en-GB', brand: 'Samsung', model: 'Galaxy S23', os_version: '33', app_version: '3.1.0', ...over });
const targeting = (t: Record<string, string[]>) => ({ type: 1 as const, targeting: t });

describe('reaches: the rules of docs/behaviour.md#devices', () => {
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

  const HEADER = 'client_id,country,language,brand,model,os_version,app_version';
  const b = { client_id: 'b', country: 'GB', language: 'en-GB', brand: 'Samsung', model: 'SM-A546B', os_version: '33', app_version: '1.0' };

  // RFC 4180 CSV as spreadsheets write it: quoted fields, quoted commas and quotes, a quoted header, CRLF.
  it.each<[string, string, Partial<typeof b>]>([
    ['quoted fields lose their quotes', `${HEADER}\n"b","GB","en-GB","Samsung","SM-A546B","33","1.0"\n`, {}],
    ['a quoted comma stays in its field', `${HEADER}\nb,GB,en-GB,Xiaomi,"Redmi Note 12, Pro",33,1.0\n`, { brand: 'Xiaomi', model: 'Redmi Note 12, Pro' }],
    ['a doubled quote is one quote', `${HEADER}\nb,GB,en-GB,Samsung,"Galaxy ""S"" 23",33,1.0\n`, { model: 'Galaxy "S" 23' }],
    ['a quoted header', `${HEADER.split(',').map((h) => `"${h}"`).join(',')}\nb,GB,en-GB,Samsung,SM-A546B,33,1.0\n`, {}],
    ['CRLF line ends and a byte-order mark', `\uFEFF${HEADER}\r\nb,GB,en-GB,Samsung,SM-A546B,33,1.0\r\n`, {}],
    ['a lower-case country is upper-cased, as in a message', `${HEADER}\nb,gb,en-GB,Samsung,SM-A546B,33,1.0\n`, {}],
    // Android writes a locale as pt_BR, and a client-ID CSV for variants takes it so (docs/behaviour.md#variants):
    // the same file must load here, its language written as the tag a message's targeting uses.
    ["Android's locale form is read as the tag", `${HEADER}\nb,GB,en_gb,Samsung,SM-A546B,33,1.0\n`, {}],
    ['a language in any case is read as the tag', `${HEADER}\nb,GB,EN-gb,Samsung,SM-A546B,33,1.0\n`, {}],
    ['empty fields other than client_id are allowed', `${HEADER}\nb,,,,,,\n`, { country: '', language: '', brand: '', model: '', os_version: '', app_version: '' }],
    // The header names the columns, as the keys of a JSON device do: any order, and a column left out is unknown
    // (a spreadsheet's export, or the client-ID CSV of `send --client-ids-file`, which needs client_id and language).
    ['columns in another order', 'language,client_id,app_version,os_version,model,brand,country\nen-GB,b,1.0,33,SM-A546B,Samsung,GB\n', {}],
    ['only some columns: the others unknown', 'client_id,language\nb,en-GB\n', { country: '', brand: '', model: '', os_version: '', app_version: '' }],
    ['a header with spaces around its names', ' client_id , country \nb,GB\n', { language: '', brand: '', model: '', os_version: '', app_version: '' }],
  ])('CSV: %s', (_name, text, changes) => {
    expect(parseDevices(text)).toEqual([{ ...b, ...changes }]);
  });

  it('accepts a {"devices": [...]} object as well as a bare array', () => {
    expect(parseDevices(JSON.stringify({ devices: [b] }))).toEqual([b]);
  });

  it.each([
    ['client,country\na,US', 'line 1: the header has no client_id column'],
    ['client_id,contry\na,US', 'line 1: unknown column "contry" (did you mean "country"?); the columns are client_id, country, language, brand, model, os_version, app_version'],
    ['client_id,country,country\na,US,GB', 'line 1: column "country" appears twice'],
    [`${HEADER}\na,US`, 'line 2: 2 fields, expected 7'],
    ['client_id,country\na,US,x', 'line 2: 3 fields, expected 2 (client_id,country)'],
    [`${HEADER}\nb,GB,en-GB,Xiaomi,Redmi Note 12, Pro,33,1.0`, 'line 2: 8 fields, expected 7'],
    [`${HEADER}\n\nb,USA,en-US,Google,Pixel 7,34,1.0`, 'line 3: country "USA" is not an ISO 3166-1 alpha-2 country code'],
    [`${HEADER}\nb,US,english,Google,Pixel 7,34,1.0`, 'line 2: language "english" is not a language code'],
    [`${HEADER}\nb,US,en-US,Google,Pixel 7,14.1,1.0`, 'line 2: os_version "14.1" is not an Android API level'],
    [`${HEADER}\n"a,b","US\n`, 'line 2:'],
    [`${HEADER}\na,US,en-US,Google,Pixel 7,34,1.0\na,US,en-US,Google,Pixel 7,34,1.0`, 'line 3: client_id "a" appears twice'],
    ['[{"country":"US"}]', 'device 1: client_id must be a non-empty string'],
    ['[{"client_id":"a","country":"XX"}]', 'device 1: country "XX" is not an ISO 3166-1 alpha-2 country code'],
    ['[{"client_id":"a"},{"client_id":"a"}]', 'device 2: client_id "a" appears twice'],
    // A key that is no field is refused as a CSV column is, never left unread.
    ['[{"client_id":"a","contry":"US"}]', 'device 1: unknown key "contry" (did you mean "country"?); the keys are client_id, country, language, brand, model, os_version, app_version'],
    ['{"phones":[]}', 'a JSON devices file is an array of devices or {"devices": [...]}'],
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

  it('counts reached devices and unknown client IDs; an inbox lists the delivered messages that reach the device', () => {
    const fleet = fleetOf([device({ client_id: 'a', country: 'GB' }), device({ client_id: 'b', country: 'US' })]);
    // Listed client IDs also name the languages of the devices they reach: the message's language in the inbox.
    expect(fleet.audience({ type: 2, client_ids: ['a', 'zzz'] })).toEqual({ reached: 1, unknown_client_ids: 1, fleet_size: 2, languages: ['en-GB'] });
    expect(fleet.audience({ type: 1, targeting: { country: ['US'] } })).toEqual({ reached: 1, unknown_client_ids: 0, fleet_size: 2 });
    expect(fleet.audience({ type: 0 })).toEqual({ reached: 2, unknown_client_ids: 0, fleet_size: 2 });
    const kept = [message({ type: 2, client_ids: ['a', 'zzz'] }), message({ type: 1, targeting: { country: ['US'] } }), message({ type: 0 }, true)];
    expect(inboxOf(fleet.find('a')!, kept).map((m) => m.title)).toEqual(['Hi']);
    expect(inboxSummaries([fleet.find('a')!, fleet.find('b')!], kept).counts).toEqual([1, 1]);
    expect(fleet.list({ q: 'us' })).toMatchObject({ devices: [{ client_id: 'b' }], total: 1 });
    expect(fleet.find('zzz')).toBeUndefined();
  });

  it('a client ID listed more than once is one device reached, or one unknown ID (the service is sent IDs as given)', () => {
    const fleet = fleetOf([device({ client_id: 'a' }), device({ client_id: 'b', language: 'fr' })]);
    expect(fleet.audience({ type: 2, client_ids: ['a', 'a', 'zzz', 'b', 'zzz', 'a'] })).toEqual({ reached: 2, unknown_client_ids: 1, fleet_size: 2, languages: ['en-GB', 'fr'] });
    const synthetic = syntheticFleet(10, 1);
    expect(synthetic.audience({ type: 2, client_ids: ['device-000001', 'device-000001', 'nobody', 'nobody'] })).toMatchObject({ reached: 1, unknown_client_ids: 1 });
  });

  it('a synthetic fleet is the same for the same seed, with consistent country and language, and IDs found by value', () => {
    const all = (seed: number) => {
      const fleet = syntheticFleet(2000, seed);
      return Array.from({ length: fleet.size }, (_, i) => fleet.deviceAt(i));
    };
    const a = all(5);
    expect(a).toEqual(all(5));
    expect(a).not.toEqual(all(6));
    expect(new Set(a.map((d) => d.client_id)).size).toBe(2000);
    for (const d of a) expect(d.language.endsWith(`-${d.country}`)).toBe(true);
    expect(new Set(a.map((d) => d.country)).size).toBeGreaterThan(10);
    const fleet = syntheticFleet(2000, 5);
    expect(fleet.find('device-000042')).toEqual(a[41]);
    for (const id of ['device-0042', 'device-002001', 'device-000000', 'x']) expect(fleet.find(id)).toBeUndefined();
    // Reached as the devices themselves would count it, without visiting them.
    const gb = { type: 1 as const, targeting: { country: ['GB'], os_version: ['33'] } };
    expect(fleet.audience(gb).reached).toBe(a.filter((d) => reaches(d, gb)).length);
  });
});

describe('a JSON devices file that is not JSON', () => {
  it('is named at its line and column by the message module parser (one JSON reader for message, apps and devices files)', () => {
    expect(() => parseDevices('[\n  {"client_id": "a",}\n]')).toThrow(/trailing comma at line 2, column 20/);
    expect(() => parseDevices('[\n  {"client_id": "a"\n')).toThrow(/at line 3, column 1/);
  });
});
