import { afterEach, describe, expect, it } from 'vitest';
import { PushClient } from '../../../src/client/push-client.js';
import { closedPort, ok, startScriptedServer, type ScriptedServer, type Step } from '../../helpers/scripted-server.js';

const SECRET = 'canary-secret-7f3a';
const message = { type: 1, time_to_live: 60, condition: { type: 2, client_ids: ['a', 'b'] }, notification: { title: 'Hi' } };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(script: Step[] | ((request: { index: number }) => Step)): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  cleanups.push(() => server.close());
  return server;
}
function clientFor(baseUrl: string, options: Partial<ConstructorParameters<typeof PushClient>[0]> = {}): PushClient {
  const client = new PushClient({ baseUrl, appId: 'demo app/1', appSecret: SECRET, userAgent: 'pushctl/0.0.0-test', ...options });
  cleanups.push(() => client.close());
  return client;
}

describe('PushClient against a scripted server', () => {
  it('sends the exact wire request and reads the message_id', async () => {
    const server = await serve([ok('msg-42')]);
    const outcome = await clientFor(server.url + '/').send(message);
    expect(outcome).toMatchObject({ kind: 'accepted', messageId: 'msg-42', httpStatus: 200 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/message/push/demo%20app%2F1');
    expect(request!.headers).toMatchObject({
      authorization: SECRET,
      'content-type': 'application/json',
      'user-agent': 'pushctl/0.0.0-test',
      connection: 'keep-alive',
    });
    expect(JSON.parse(request!.body)).toEqual(message);
  });

  it('sends JSON.stringify of the body byte for byte, with its length in bytes (non-ASCII text, many IDs)', async () => {
    const server = await serve([ok()]);
    const body = { ...message, condition: { type: 2, client_ids: Array.from({ length: 1000 }, (_, i) => `id-${i}-é`) }, notification: { title: 'Grüße 日本 🎉 "q" \\ \u2028' } };
    await clientFor(server.url).send(body);
    const [request] = server.requests;
    expect(request!.body).toBe(JSON.stringify(body));
    expect(request!.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(body))));
  });

  it('sends each body intact when body buffers are reused: one after another, and many at once of different sizes', async () => {
    const server = await serve(() => ok());
    const client = clientFor(server.url);
    const bodyOf = (i: number) => ({ ...message, condition: { type: 2, client_ids: Array.from({ length: 1 + ((i * 37) % 300) }, (_, j) => `b${i}-${j}`) } });
    for (let i = 0; i < 5; i++) await client.send(bodyOf(i));
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.send(bodyOf(5 + i))));
    const received = server.requests.map((request) => request.body).sort();
    expect(received).toEqual(Array.from({ length: 45 }, (_, i) => JSON.stringify(bodyOf(i))).sort());
  });

  it('sends JSON.stringify of every body byte for byte, whatever its text and IDs hold', async () => {
    const server = await serve(() => ok());
    const client = clientFor(server.url);
    const mark = '\u0000pushctl:client_ids\u0000';
    const ids = (...extra: unknown[]) => [...Array.from({ length: 100 }, (_, i) => `id-${i}`), ...extra];
    const bodies: object[] = [
      { ...message, condition: { type: 2, client_ids: ids('é', '日本', '😀', '\u2028', '\u007f') } },
      { ...message, condition: { type: 2, client_ids: ids('a"b') } },
      { ...message, condition: { type: 2, client_ids: ids('back\\slash') } },
      { ...message, condition: { type: 2, client_ids: ids('lone\ud800') } },
      { ...message, condition: { type: 2, client_ids: ids(7, null) } },
      { ...message, condition: { type: 2, client_ids: [] } },
      { ...message, notification: { title: mark }, condition: { type: 2, client_ids: ids() } },
      { ...message, notification: { title: JSON.stringify(mark) }, condition: { type: 2, client_ids: ids() } },
      { data: { client_ids: ['x'] }, condition: { client_ids: ids(), type: 2, after: 1 }, last: true },
      { condition: { type: 2, client_ids: ids(), toJSON: () => ({ replaced: true }) } },
    ];
    for (const body of bodies) await client.send(body);
    expect(server.requests.map((request) => request.body)).toEqual(bodies.map((body) => JSON.stringify(body)));
  });

  it('keeps a base URL path prefix', async () => {
    const server = await serve([ok()]);
    await clientFor(`${server.url}/prefix/`).send(message);
    expect(server.requests[0]!.url).toBe('/prefix/v1/message/push/demo%20app%2F1');
  });

  it('describes the request for --verbose with the secret hidden, and returns the raw answer', async () => {
    const server = await serve([ok('m')]);
    const client = clientFor(server.url);
    const view = client.describeRequest(message);
    expect(view).toMatchObject({ method: 'POST', url: `${server.url}/v1/message/push/demo%20app%2F1`, body: JSON.stringify(message) });
    expect(view.headers['Authorization']).toBe('***');
    expect(JSON.stringify(view)).not.toContain(SECRET);
    const outcome = await client.send(message);
    expect(outcome.response).toMatchObject({ httpStatus: 200, incomplete: false, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(outcome.response!.body)).toMatchObject({ result: { message_id: 'm' } });
  });

  it('lets the body status decide: HTTP 400 with 21004 is a rejection', async () => {
    const server = await serve([{ status: 400, body: { status: 21004, message: 'App Secret illegal' } }]);
    expect(await clientFor(server.url).send(message)).toMatchObject({ kind: 'rejected', code: 21004, message: 'App Secret illegal', httpStatus: 400 });
  });

  it('is ambiguous about a 502 with an HTML page', async () => {
    const server = await serve([{ status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'Content-Type': 'text/html' } }]);
    const outcome = await clientFor(server.url).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', httpStatus: 502 });
    expect(outcome.response?.body).toContain('Bad Gateway');
  });

  it('is ambiguous about an empty 200', async () => {
    const server = await serve([{ status: 200 }]);
    expect(await clientFor(server.url).send(message)).toMatchObject({ kind: 'in_doubt', httpStatus: 200 });
  });

  it('caps a huge answer instead of reading it all', async () => {
    const server = await serve([{ status: 200, body: 'x'.repeat(3 * 1024 * 1024) }]);
    const outcome = await clientFor(server.url, { maxResponseBytes: 64 * 1024 }).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', httpStatus: 200, response: { incomplete: true } });
    expect(outcome.response!.body.length).toBe(64 * 1024);
  });

  it('is ambiguous about a connection reset after the request was sent', async () => {
    const server = await serve([{ action: 'reset' }]);
    const outcome = await clientFor(server.url).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', errorCode: 'ECONNRESET' });
    expect(server.requests).toHaveLength(1);
  });

  it('times out on a server that never answers: ambiguous, sent once', async () => {
    const server = await serve([{ action: 'hang' }]);
    const outcome = await clientFor(server.url, { timeoutMs: 300 }).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', errorCode: 'TIMEOUT' });
    expect(server.requests).toHaveLength(1);
  });

  it('times out on a body that stops halfway', async () => {
    const server = await serve([{ action: 'stall-body', status: 200 }]);
    const outcome = await clientFor(server.url, { timeoutMs: 300 }).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', httpStatus: 200, response: { incomplete: true } });
  });

  it('retries nothing itself but classifies a refused connection as not processed', async () => {
    const port = await closedPort();
    expect(await clientFor(`http://127.0.0.1:${port}`).send(message)).toMatchObject({ kind: 'retryable', errorCode: 'ECONNREFUSED' });
  });

  it('classifies 429 with Retry-After as retryable', async () => {
    const server = await serve([{ status: 429, headers: { 'Retry-After': '3' }, body: 'slow down' }]);
    expect(await clientFor(server.url).send(message)).toMatchObject({ kind: 'retryable', httpStatus: 429, retryAfterMs: 3000 });
  });

  it('does not follow a redirect, so the secret never reaches the other host', async () => {
    const elsewhere = await serve([ok()]);
    const server = await serve([{ status: 307, headers: { Location: `${elsewhere.url}/v1/message/push/x` } }]);
    const outcome = await clientFor(server.url).send(message);
    expect(outcome).toMatchObject({ kind: 'in_doubt', httpStatus: 307, redirectTo: `${elsewhere.url}/v1/message/push/x` });
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('reuses one keep-alive connection for consecutive requests', async () => {
    const server = await serve([ok()]);
    const client = clientFor(server.url);
    for (let i = 0; i < 5; i++) expect((await client.send(message)).kind).toBe('accepted');
    expect(server.requests).toHaveLength(5);
    expect(server.connections()).toBe(1);
  });

  it('rejects with the abort reason when aborted before sending', async () => {
    const server = await serve([ok()]);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(clientFor(server.url).send(message, { signal: controller.signal })).rejects.toThrow('stopped');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a secret that cannot be a header and a base URL that is not http(s)', () => {
    expect(() => new PushClient({ baseUrl: 'http://127.0.0.1:1', appId: 'a', appSecret: 's\n', userAgent: 'x' })).toThrow(/secret/);
    expect(() => new PushClient({ baseUrl: 'ftp://x', appId: 'a', appSecret: 's', userAgent: 'x' })).toThrow(/http/);
    expect(() => new PushClient({ baseUrl: 'not a url', appId: 'a', appSecret: 's', userAgent: 'x' })).toThrow(/valid URL/);
  });
});

describe('PushClient refuses settings it cannot send with, in the words of every other error', () => {
  // A library user meets these (the CLI checks the same settings earlier): one line, lower case, no full stop, and the hint apart.
  it.each([
    [{ baseUrl: 'not a url' }, 'the base URL "not a url" is not a valid URL', 'use e.g. https://pushapi.twibida.com'],
    [{ baseUrl: 'ftp://example.com' }, 'the base URL must use http or https, not ftp:', 'use e.g. https://pushapi.twibida.com'],
    [{ appSecret: 'line\nbreak' }, 'the app secret is empty or contains characters that cannot go in an HTTP header (a newline?)', 'copy the secret again from the vendor console, as one line of plain text'],
    [{ appSecret: '' }, 'the app secret is empty or contains characters that cannot go in an HTTP header (a newline?)', 'copy the secret again from the vendor console, as one line of plain text'],
  ])('%j', (options, message, hint) => {
    expect(() => new PushClient({ baseUrl: 'http://127.0.0.1:9', appId: 'a', appSecret: SECRET, userAgent: 'pushctl/0.0.0-test', ...options })).toThrow(expect.objectContaining({ message, hint }));
  });
});
