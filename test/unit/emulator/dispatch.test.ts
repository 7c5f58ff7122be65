import { describe, expect, it } from 'vitest';
import type { EmulatorApp } from '../../../src/emulator/apps.js';
import type { EmulatorAnswer } from '../../../src/emulator/answers.js';
import { RateWindow } from '../../../src/emulator/rate-window.js';
import { dispatch } from '../../../src/emulator/server.js';
import { createState, type EmulatorRequest } from '../../../src/emulator/state.js';

const APPS: EmulatorApp[] = [
  { id: 'app', secret: 's3cret' },
  { id: 'off', secret: 'off-secret', disabled: true },
  { id: 'with space', secret: 'x' },
];
const VALID = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } };

function setup(overrides: { rate?: number; maxClientIds?: number } = {}) {
  let clock = 1_700_000_000_000;
  let n = 0;
  const state = createState({
    apps: new Map(APPS.map((a) => [a.id, a])),
    rate: new RateWindow(overrides.rate ?? 0),
    maxClientIds: overrides.maxClientIds ?? 1000,
    now: () => clock,
    newMessageId: () => `id-${(n += 1)}`,
  });
  const call = (request: Partial<EmulatorRequest> & { body?: unknown }) => {
    const { body, ...rest } = request;
    return dispatch(
      {
        method: 'POST',
        url: '/v1/message/push/app',
        headers: { authorization: 's3cret' },
        bodyText: body === undefined ? JSON.stringify(VALID) : typeof body === 'string' ? body : JSON.stringify(body),
        ...rest,
      },
      state,
    ) as EmulatorAnswer;
  };
  const status = (request: Parameters<typeof call>[0]) => (call(request).json as { status: number }).status;
  return { state, call, status, tick: (ms: number) => (clock += ms) };
}

describe('dispatch: the push endpoint', () => {
  it('accepts a valid message and stores the body as received: converting is the sender\'s job', () => {
    const { call, state } = setup();
    const answer = call({ body: { ...VALID, condition: { type: 2, client_ids: [' a', 'a', 'b'] } } });
    expect(answer).toMatchObject({ httpStatus: 200, json: { status: 200, message: 'OK', result: { message_id: 'id-1' } } });
    expect(state.store.list()).toEqual([
      expect.objectContaining({
        app_id: 'app',
        message_id: 'id-1',
        received_at: '2023-11-14T22:13:20.000Z',
        dry_run: false,
        delivered: true,
        body: expect.objectContaining({ condition: { type: 2, client_ids: [' a', 'a', 'b'] } }),
      }),
    ]);
  });

  it('answers a dry run like a send but stores it as not delivered', () => {
    const { call, state } = setup();
    expect(call({ body: { ...VALID, dry_run: true } }).json).toMatchObject({ status: 200, result: { message_id: 'id-1' } });
    expect(state.store.list()[0]).toMatchObject({ dry_run: true, delivered: false });
  });

  it.each([
    ['/v1/message/push/', 21001],
    ['/v1/message/push', 21001],
    ['/v1/message/push/nobody', 21002],
    ['/v1/message/push/%E0%A4%A', 21002],
    ['/v1/message/push/app/extra', 21002],
  ])('answers %s with %i', (url, code) => {
    expect(setup().status({ url })).toBe(code);
  });

  it('decodes a percent-encoded app ID', () => {
    expect(setup().status({ url: '/v1/message/push/with%20space', headers: { authorization: 'x' } })).toBe(200);
  });

  it('checks the secret: 21003 when missing or empty, 21004 when wrong, with a hint for a scheme prefix', () => {
    const { call, status } = setup();
    expect(status({ headers: {} })).toBe(21003);
    expect(status({ headers: { authorization: '' } })).toBe(21003);
    expect(status({ headers: { authorization: 'nope' } })).toBe(21004);
    expect(status({ headers: { Authorization: 's3cret' } })).toBe(200);
    expect(call({ headers: { authorization: 'Bearer s3cret' } }).json).toMatchObject({
      status: 21004,
      message: expect.stringContaining('without the "Bearer" prefix'),
    });
  });

  it('never echoes the secret it was sent', () => {
    const answer = setup().call({ headers: { authorization: 'my-real-secret-value' } });
    expect(JSON.stringify(answer)).not.toContain('my-real-secret-value');
  });

  it('answers 21007 for a disabled app, after checking its secret', () => {
    const { status } = setup();
    expect(status({ url: '/v1/message/push/off', headers: { authorization: 'off-secret' } })).toBe(21007);
    expect(status({ url: '/v1/message/push/off', headers: { authorization: 'wrong' } })).toBe(21004);
  });

  it('checks in the order app ID, app, secret, disabled, rate, body', () => {
    const { status } = setup({ rate: 1 });
    expect(status({ url: '/v1/message/push/', headers: {}, body: '{' })).toBe(21001);
    expect(status({ url: '/v1/message/push/nobody', headers: {}, body: '{' })).toBe(21002);
    expect(status({ headers: {}, body: '{' })).toBe(21003);
    expect(status({ url: '/v1/message/push/off', headers: { authorization: 'off-secret' }, body: '{' })).toBe(21007);
    expect(status({ body: '{' })).toBe(21005);
    expect(status({ body: '{' })).toBe(22001);
  });

  it('answers 22001 with Retry-After over the per-app rate, and admits again a second later', () => {
    const { call, status, tick } = setup({ rate: 2 });
    expect(status({})).toBe(200);
    expect(status({})).toBe(200);
    const refused = call({});
    expect(refused).toMatchObject({ httpStatus: 200, headers: { 'retry-after': '1' }, json: { status: 22001 } });
    tick(999);
    expect(status({})).toBe(22001);
    tick(1);
    expect(status({})).toBe(200);
  });

  it.each([
    ['', /body is empty/],
    ['   ', /body is empty/],
    ['{"type":', /not valid JSON/],
    ['[1]', /JSON object, not an array/],
    ['null', /JSON object, not null/],
    ['42', /JSON object, not a number/],
  ])('answers 21005 for the body %j', (body, reason) => {
    expect(setup().call({ body }).json).toMatchObject({ status: 21005, message: expect.stringMatching(reason) });
  });

  it('answers 21005 for a body over the size limit', () => {
    const answer = setup().call({ bodyText: '', bodyTooLarge: { limit: 10 } });
    expect(answer.json).toMatchObject({ status: 21005, message: expect.stringContaining('larger than 10 bytes') });
  });

  it('answers 21005 with every reason as "path: message" and the issues themselves', () => {
    const answer = setup().call({ body: { type: 3, time_to_live: 60, condition: { type: 0 }, notification: { titel: 'x' } } });
    const json = answer.json as { status: number; message: string; errors: { path: string }[] };
    expect(json.status).toBe(21005);
    expect(json.message).toMatch(/^message illegal: type: .*; notification\.titel: /);
    expect(json.errors.map((e) => e.path)).toEqual(['type', 'notification.titel']);
  });

  it('answers 21006 above the client-ID limit, counted as sent (pushctl removes duplicates before sending)', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    const { status } = setup({ maxClientIds: 3 });
    expect(status({ body: { ...VALID, condition: { type: 2, client_ids: ids(4) } } })).toBe(21006);
    expect(status({ body: { ...VALID, condition: { type: 2, client_ids: ids(3) } } })).toBe(200);
    expect(status({ body: { ...VALID, condition: { type: 2, client_ids: [...ids(3), 'c0'] } } })).toBe(21006);
    expect(setup({ maxClientIds: 0 }).status({ body: { ...VALID, condition: { type: 2, client_ids: ids(5000) } } })).toBe(200);
  });

  it('answers 405 with Allow for another method', () => {
    expect(setup().call({ method: 'GET' })).toMatchObject({ httpStatus: 405, headers: { allow: 'POST' }, json: { status: 405 } });
  });
});

describe('dispatch: the emulator routes', () => {
  it('lists accepted messages with an app filter and a limit, and clears them', () => {
    const { call } = setup();
    call({});
    call({ url: '/v1/message/push/with%20space', headers: { authorization: 'x' } });
    call({});
    const list = (url: string) => call({ method: 'GET', url, bodyText: '' }).json as { messages: { message_id: string }[]; accepted: number };
    expect(list('/v1/emulator/messages').messages.map((m) => m.message_id)).toEqual(['id-1', 'id-2', 'id-3']);
    expect(list('/v1/emulator/messages?app=app')).toMatchObject({ accepted: 2, messages: [{ message_id: 'id-1' }, { message_id: 'id-3' }] });
    expect(list('/v1/emulator/messages?app=with+space&limit=5').messages).toHaveLength(1);
    expect(list('/v1/emulator/messages?limit=1').messages.map((m) => m.message_id)).toEqual(['id-3']);
    expect(call({ method: 'GET', url: '/v1/emulator/messages?limit=-1', bodyText: '' }).httpStatus).toBe(400);
    expect(call({ method: 'DELETE', url: '/v1/emulator/messages?app=app', bodyText: '' }).json).toMatchObject({ deleted: 2 });
    expect(list('/v1/emulator/messages').messages).toHaveLength(1);
    expect(call({ method: 'PUT', url: '/v1/emulator/messages', bodyText: '' }).httpStatus).toBe(405);
  });

  it('answers health checks and 404 for unknown paths', () => {
    const { call } = setup();
    expect(call({ method: 'GET', url: '/v1/emulator/health', bodyText: '' }).json).toMatchObject({ status: 200, apps: 3 });
    expect(call({ method: 'GET', url: '/nowhere', bodyText: '' })).toMatchObject({ httpStatus: 404, json: { status: 404, message: expect.stringContaining('POST /v1/message/push/{AppID}') } });
  });
});
