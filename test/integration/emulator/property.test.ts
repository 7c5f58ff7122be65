// What `pushctl validate` rejects, the emulator answers with 21005; what it accepts, pushctl sends as it
// converted it, and the emulator accepts and stores exactly that. The emulator converts nothing itself (the
// interface document leaves that to the sender), so a body that needed converting is one it may refuse,
// and one that needed none it accepts as written. Both go through the one schema module.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type StoredMessage } from '../../../src/emulator/index.js';
import { validateMessage } from '../../../src/message/validate.js';

// Messages are drawn valid-looking, then about half of them get one defect, so both outcomes are common.
const clientId = fc.oneof(fc.constantFrom(' padded ', 'dup', 'dup'), fc.string({ minLength: 1, maxLength: 12 }));
const targeting = fc.record(
  {
    country: fc.array(fc.constantFrom('US', 'gb', 'IN', 'cn'), { maxLength: 3 }),
    language: fc.array(fc.constantFrom('en', 'zh-CN', 'pt-BR'), { maxLength: 3 }),
    brand: fc.array(fc.constantFrom('Samsung', 'google pixel', 'XIAOMI'), { maxLength: 2 }),
    model: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 2 }),
    os_version: fc.array(fc.constantFrom('33', 30), { maxLength: 2 }),
    app_version: fc.array(fc.constantFrom('1.0.0', '2.3'), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
const condition = fc.oneof(
  fc.record({ type: fc.constant(0) }),
  fc.record({ type: fc.constant(1), targeting }),
  fc.record({ type: fc.constant(2), client_ids: fc.array(clientId, { minLength: 1, maxLength: 8 }) }),
  fc.record({ type: fc.constantFrom(0, 2), client_ids: fc.array(clientId, { minLength: 1, maxLength: 3 }), targeting }),
);
const notification = fc.record(
  {
    notification_type: fc.constantFrom(1, 3),
    title: fc.string({ maxLength: 20 }),
    desc: fc.string({ maxLength: 20 }),
    icon: fc.constant('https://example.com/i.png'),
    small_icon: fc.constant('ic'),
    small_icon_color: fc.constantFrom('#1A73E8', '#00ff00'),
    open_type: fc.constantFrom('1', 1),
    button_text: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: [] },
);
const data = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean()), {
  maxKeys: 4,
});
const message = fc.record(
  {
    dry_run: fc.boolean(),
    type: fc.constantFrom(1, 2),
    time_to_live: fc.integer({ min: 1, max: 3_000_000 }),
    condition,
    notification,
    data,
  },
  { requiredKeys: ['type', 'time_to_live', 'condition'] },
);

type Json = Record<string, unknown>;
/** One defect each: a wrong type or value, a missing required field, an unknown field, an oversized value. */
const DEFECTS: ((m: Json) => void)[] = [
  (m) => (m.type = 3),
  (m) => (m.type = '1'),
  (m) => (m.time_to_live = 0),
  (m) => (m.time_to_live = 1.5),
  (m) => (m.time_to_live = '60'),
  (m) => delete m.condition,
  (m) => delete m.type,
  (m) => (m.dry_run = 'yes'),
  (m) => (m.priority = 'high'),
  (m) => (m.condition = { type: 5 }),
  (m) => (m.condition = { type: 1 }),
  (m) => (m.condition = { type: 2, client_ids: [] }),
  (m) => (m.condition = { type: 2, client_ids: ['ok', ''] }),
  (m) => (m.condition = { type: 2, client_ids: ['ok', 42] }),
  (m) => (m.condition = { type: 1, targeting: { country: ['UK'] } }),
  (m) => (m.condition = { type: 1, targeting: { language: ['EN_us'] } }),
  (m) => (m.condition = { type: 1, targeting: { os_version: ['12.1'] } }),
  (m) => (m.condition = { type: 1, targeting: { colour: ['red'] } }),
  (m) => (m.notification = { titel: 'typo' }),
  (m) => (m.notification = { notification_type: 2 }),
  (m) => (m.notification = { small_icon_color: 'red' }),
  (m) => (m.notification = { open_type: '2', open_content: 'MainActivity' }),
  (m) => (m.notification = { open_type: '3' }),
  (m) => (m.data = { big: 'x'.repeat(2100) }),
  (m) => (m.data = { nested: { a: 1 } }),
  (m) => (m.data = 'text'),
];
const body = fc
  .tuple(message, fc.option(fc.nat(DEFECTS.length - 1), { nil: undefined, freq: 2 }))
  .map(([m, defect]) => {
    const copy = structuredClone(m) as Json;
    if (defect !== undefined) DEFECTS[defect]?.(copy);
    return copy as unknown;
  });
const anyBody = fc.oneof({ weight: 9, arbitrary: body }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

describe('the emulator agrees with validateMessage', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await createEmulator({ port: 0, rate: 0 });
  });
  afterAll(() => emu.close());

  it('answers 21005 to what validation rejects and accepts what it accepts', async () => {
    const outcomes = { accepted: 0, rejected: 0, converted: 0 };
    await fc.assert(
      fc.asyncProperty(anyBody, async (input) => {
        const text = JSON.stringify(input) ?? 'null';
        const expected = validateMessage(JSON.parse(text));
        const res = await fetch(`${emu.url}/v1/message/push/demo-app`, {
          method: 'POST',
          headers: { authorization: 'demo-secret', 'content-type': 'application/json' },
          body: text,
        });
        const json = (await res.json()) as { status: number; result?: { message_id: string } };
        if (expected.errors.length > 0) {
          expect(json.status).toBe(21005);
          outcomes.rejected += 1;
          return;
        }
        // Written as the service takes it: accepted as written.
        if (expected.notes.length === 0) expect(json.status).toBe(200);
        else expect([200, 21005]).toContain(json.status);
        const sent = await fetch(`${emu.url}/v1/message/push/demo-app`, {
          method: 'POST',
          headers: { authorization: 'demo-secret', 'content-type': 'application/json' },
          body: JSON.stringify(expected.body),
        });
        const answer = (await sent.json()) as { status: number; result?: { message_id: string } };
        expect(answer.status).toBe(200);
        const stored = emu.messages().find((m: StoredMessage) => m.message_id === answer.result?.message_id);
        expect(stored?.body).toEqual(expected.body);
        expect(stored?.dry_run).toBe(expected.body?.dry_run === true);
        outcomes.accepted += 1;
        if (json.status === 21005) outcomes.converted += 1;
      }),
      { numRuns: 400 },
    );
    // Both sides of the property were exercised.
    expect(outcomes.accepted).toBeGreaterThan(20);
    expect(outcomes.rejected).toBeGreaterThan(20);
    expect(outcomes.converted, 'bodies only the sender\'s conversion makes legal').toBeGreaterThan(10);
  });
});
