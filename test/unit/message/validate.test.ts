import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../../src/message/validate.js';
import type { MessageIssue } from '../../../src/message/types.js';

const base = () => ({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hi' } });
type Json = Record<string, unknown>;
const withPatch = (patch: (m: Json) => void): Json => {
  const m = structuredClone(base()) as Json;
  patch(m);
  return m;
};
const find = (issues: MessageIssue[], path: string) => issues.find((i) => i.path === path);

describe('validateMessage: errors (each rule passes and fails)', () => {
  const cases: [name: string, ok: (m: Json) => void, bad: (m: Json) => void, path: string, rule: string, fix?: RegExp][] = [
    ['type is 1 or 2', (m) => (m.type = 2), (m) => (m.type = 3), 'type', 'value'],
    ['type is required', () => {}, (m) => delete m.type, 'type', 'required', /--type/],
    ['time_to_live is a positive whole number', (m) => (m.time_to_live = 1), (m) => (m.time_to_live = 0), 'time_to_live', 'ttl'],
    ['time_to_live is not fractional', (m) => (m.time_to_live = 60), (m) => (m.time_to_live = 1.5), 'time_to_live', 'type'],
    ['time_to_live quoted gets a fix', (m) => (m.time_to_live = 60), (m) => (m.time_to_live = '60'), 'time_to_live', 'type', /without quotes/],
    ['condition.type is 0, 1 or 2', (m) => (m.condition = { type: 2, client_ids: ['a'] }), (m) => (m.condition = { type: 5 }), 'condition.type', 'value'],
    ['condition.type 1 needs targeting', (m) => (m.condition = { type: 1, targeting: {} }), (m) => (m.condition = { type: 1 }), 'condition.targeting', 'condition'],
    ['condition.type 2 needs client_ids', (m) => (m.condition = { type: 2, client_ids: ['x'] }), (m) => (m.condition = { type: 2, client_ids: [] }), 'condition.client_ids', 'condition'],
    ['client IDs are non-empty strings', (m) => (m.condition = { type: 2, client_ids: ['x'] }), (m) => (m.condition = { type: 2, client_ids: ['x', '  '] }), 'condition.client_ids[1]', 'non-empty'],
    ['client IDs are strings', (m) => (m.condition = { type: 2, client_ids: ['7'] }), (m) => (m.condition = { type: 2, client_ids: [7] }), 'condition.client_ids[0]', 'type'],
    ['country is assigned ISO 3166-1', (m) => (m.condition = { type: 1, targeting: { country: ['GB'] } }), (m) => (m.condition = { type: 1, targeting: { country: ['GB', 'UK'] } }), 'condition.targeting.country[1]', 'country', /use GB/],
    ['language is bare or language-region', (m) => (m.condition = { type: 1, targeting: { language: ['zh', 'zh-CN'] } }), (m) => (m.condition = { type: 1, targeting: { language: ['zh_CN'] } }), 'condition.targeting.language[0]', 'language', /zh-CN/],
    ['os_version is a whole number', (m) => (m.condition = { type: 1, targeting: { os_version: ['33'] } }), (m) => (m.condition = { type: 1, targeting: { os_version: ['13.1'] } }), 'condition.targeting.os_version[0]', 'os-version'],
    ['small_icon_color is #RRGGBB', (m) => (m.notification = { title: 'a', small_icon_color: '#00ff00' }), (m) => (m.notification = { title: 'a', small_icon_color: '#0f0' }), 'notification.small_icon_color', 'colour'],
    ['notification_type is 1 or 3', (m) => (m.notification = { title: 'a', notification_type: 3 }), (m) => (m.notification = { title: 'a', notification_type: 2 }), 'notification.notification_type', 'value'],
    ['open_type is "1" or "2"', (m) => (m.notification = { title: 'a', open_type: '1' }), (m) => (m.notification = { title: 'a', open_type: '3' }), 'notification.open_type', 'value'],
    ['open_type "2" needs an http(s) URL', (m) => (m.notification = { title: 'a', open_type: '2', open_content: 'https://example.com/x' }), (m) => (m.notification = { title: 'a', open_type: '2', open_content: 'javascript:alert(1)' }), 'notification.open_content', 'open-content'],
    ['open_type "2" needs open_content', (m) => (m.notification = { title: 'a', open_type: '2', open_content: 'http://example.com' }), (m) => (m.notification = { title: 'a', open_type: '2' }), 'notification.open_content', 'open-content', /--open-url/],
    ['data values are flat', (m) => (m.data = { a: 'b' }), (m) => (m.data = { a: { b: 'c' } }), 'data.a', 'data-value'],
    ['data at most 2048 bytes', (m) => (m.data = { k: 'x'.repeat(2040) }), (m) => (m.data = { k: 'é'.repeat(1100) }), 'data', 'data-size', /remove \d+ bytes/],
    ['unknown fields suggest the nearest', () => {}, (m) => (m.time_to_lve = 5), 'time_to_lve', 'unknown-field', /did you mean "time_to_live"/],
    ['misplaced fields point where they belong', () => {}, (m) => (m.title = 'x'), 'title', 'unknown-field', /notification\.title/],
    ['unknown fields in nested objects', () => {}, (m) => (m.notification = { titel: 'x' }), 'notification.titel', 'unknown-field', /"title"/],
    ['dry_run is a boolean', (m) => (m.dry_run = true), (m) => (m.dry_run = 'yes'), 'dry_run', 'type'],
  ];
  for (const [name, ok, bad, path, rule, fix] of cases) {
    it(name, () => {
      const good = validateMessage(withPatch(ok));
      expect(good.errors).toEqual([]);
      expect(good.body).toBeDefined();
      const result = validateMessage(withPatch(bad));
      expect(result.body).toBeUndefined();
      const issue = find(result.errors, path);
      expect(issue, JSON.stringify(result.errors)).toBeDefined();
      expect(issue!.rule).toBe(rule);
      if (fix) expect(issue!.fix).toMatch(fix);
    });
  }

  it('reports the data size in bytes of UTF-8', () => {
    const result = validateMessage(withPatch((m) => (m.data = { k: 'é'.repeat(1100) })));
    expect(find(result.errors, 'data')!.message).toContain('2208 bytes') // {"k":"…"}: 8 bytes of JSON around 1100 two-byte characters;
  });

  it('one byte over the data limit says "remove 1 byte"', () => {
    // {"k":"…"} is 8 bytes of JSON around the value: 2041 x's make 2049.
    const result = validateMessage(withPatch((m) => (m.data = { k: 'x'.repeat(2041) })));
    expect(find(result.errors, 'data')!.fix).toBe('remove 1 byte');
  });

  it('rejects a body that is not an object', () => {
    for (const input of [null, [], 'x', 5, true, undefined]) {
      const result = validateMessage(input);
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]!.message).toMatch(/JSON object/);
    }
  });

  it('accepts "$schema" and does not send it', () => {
    const result = validateMessage({ $schema: './schema.json', ...base() });
    expect(result.errors).toEqual([]);
    expect(result.body).not.toHaveProperty('$schema');
  });
});

describe('validateMessage: normalisations', () => {
  it('trims client IDs with a note; judged as received (the emulator), they are kept as written', () => {
    const ids = withPatch((m) => (m.condition = { type: 2, client_ids: [' padded ', 'plain'] }));
    expect(validateMessage(ids).body!.condition.client_ids).toEqual(['padded', 'plain']);
    expect(validateMessage(ids, { asReceived: true }).body!.condition.client_ids).toEqual([' padded ', 'plain']);
    // Blank is refused both ways, as the trimmed ID it would become is empty.
    const blank = withPatch((m) => (m.condition = { type: 2, client_ids: [' '] }));
    expect(validateMessage(blank).errors.map((e) => e.path)).toEqual(['condition.client_ids[0]']);
    expect(validateMessage(blank, { asReceived: true }).errors.map((e) => e.path)).toEqual(['condition.client_ids[0]']);
  });

  it('upper-cases country codes with a note', () => {
    const r = validateMessage(withPatch((m) => (m.condition = { type: 1, targeting: { country: ['gb', 'us'] } })));
    expect(r.body!.condition.targeting!.country).toEqual(['GB', 'US']);
    // Each value at its own path, with what it became.
    expect(find(r.notes, 'condition.targeting.country[0]')?.message).toBe('"gb" → "GB" (country codes are upper case)');
    expect(find(r.notes, 'condition.targeting.country[1]')?.message).toContain('"us" → "US"');
  });
  it('upper-cases brand and model and removes spaces', () => {
    const r = validateMessage(withPatch((m) => (m.condition = { type: 1, targeting: { brand: ['Infinix Mobile'], model: ['note 30 pro'] } })));
    expect(r.body!.condition.targeting!.brand).toEqual(['INFINIXMOBILE']);
    expect(r.body!.condition.targeting!.model).toEqual(['NOTE30PRO']);
  });
  it('turns numbers in os_version into strings', () => {
    const r = validateMessage(withPatch((m) => (m.condition = { type: 1, targeting: { os_version: [33, '34'] } })));
    expect(r.body!.condition.targeting!.os_version).toEqual(['33', '34']);
  });
  it('turns numbers and booleans in data into strings', () => {
    const r = validateMessage(withPatch((m) => (m.data = { n: 3, b: false, s: 'x' })));
    expect(r.body!.data).toEqual({ n: '3', b: 'false', s: 'x' });
    expect(r.notes.filter((n) => n.path.startsWith('data.'))).toHaveLength(2);
  });
  it('converts a numeric open_type to a string', () => {
    const r = validateMessage(withPatch((m) => (m.notification = { title: 'a', open_type: 1 })));
    expect(r.body!.notification!.open_type).toBe('1');
  });
  it('trims client IDs and removes duplicates, listing both', () => {
    const r = validateMessage(withPatch((m) => (m.condition = { type: 2, client_ids: [' a ', 'b', 'a', 'b '] })));
    expect(r.body!.condition.client_ids).toEqual(['a', 'b']);
    expect(r.notes.map((n) => n.rule).sort()).toEqual(['dedupe', 'trim']);
  });
  it('leaves a clean message untouched, with no notes', () => {
    const r = validateMessage(base());
    expect(r.body).toEqual(base());
    expect(r.notes).toEqual([]);
  });
});

describe('validateMessage: warnings', () => {
  const cases: [name: string, patch: (m: Json) => void, path: string][] = [
    ['targeting with condition.type 0', (m) => (m.condition = { type: 0, targeting: { country: ['US'] } }), 'condition.targeting'],
    ['targeting with condition.type 2', (m) => (m.condition = { type: 2, client_ids: ['a'], targeting: {} }), 'condition.targeting'],
    ['client_ids with condition.type 0', (m) => (m.condition = { type: 0, client_ids: ['a'] }), 'condition.client_ids'],
    ['client_ids with condition.type 1', (m) => (m.condition = { type: 1, targeting: {}, client_ids: ['a'] }), 'condition.client_ids'],
    ['icon with system style', (m) => (m.notification = { title: 'a', icon: 'x.png' }), 'notification.icon'],
    ['button_text with system style', (m) => (m.notification = { title: 'a', notification_type: 1, button_text: 'Go' }), 'notification.button_text'],
    ['small_icon with button style', (m) => (m.notification = { title: 'a', notification_type: 3, small_icon: 'i' }), 'notification.small_icon'],
    ['small_icon_color with button style', (m) => (m.notification = { title: 'a', notification_type: 3, small_icon_color: '#000000' }), 'notification.small_icon_color'],
    ['notification on a data message', (m) => { m.type = 2; }, 'notification'],
    ['button style, which the service may refuse', (m) => (m.notification = { title: 'a', notification_type: 3 }), 'notification.notification_type'],
    ['time_to_live over 28 days', (m) => (m.time_to_live = 28 * 86400 + 1), 'time_to_live'],
  ];
  for (const [name, patch, path] of cases) {
    it(`warns: ${name}, and --strict makes it an error`, () => {
      const r = validateMessage(withPatch(patch));
      expect(r.errors).toEqual([]);
      expect(find(r.warnings, path), JSON.stringify(r.warnings)).toBeDefined();
      const strict = validateMessage(withPatch(patch), { strict: true });
      expect(strict.body).toBeUndefined();
      expect(find(strict.errors, path)).toBeDefined();
    });
  }
  it('a notification with neither title nor desc is an error, not a warning', () => {
    for (const notification of [{}, { title: '' }, { desc: '', icon: 'i' }, undefined]) {
      const r = validateMessage(withPatch((m) => (notification === undefined ? delete m.notification : (m.notification = notification))));
      expect(r.body).toBeUndefined();
      expect(r.errors).toEqual([expect.objectContaining({ path: 'notification', rule: 'empty-notification' })]);
    }
    expect(validateMessage(withPatch((m) => (m.notification = { desc: 'only a desc' }))).errors).toEqual([]);
  });

  it('does not warn on a plain notification or a 28-day TTL; a button notification only gets the may-refuse warning', () => {
    expect(validateMessage(base()).warnings).toEqual([]);
    expect(validateMessage(withPatch((m) => (m.notification = { title: 'a', notification_type: 3, icon: 'i', button_text: 'b' }))).warnings.map((w) => w.rule)).toEqual(['button-style']);
    expect(validateMessage(withPatch((m) => (m.time_to_live = 28 * 86400))).warnings).toEqual([]);
    expect(validateMessage({ type: 2, time_to_live: 5, condition: { type: 0 }, data: { a: 'b' } }).warnings).toEqual([]);
  });
});
