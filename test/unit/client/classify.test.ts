import { describe, expect, it } from 'vitest';
import { classifyNetworkError, classifyResponse, parseRetryAfter, parseServiceBody } from '../../../src/client/classify.js';
import type { ResponseView } from '../../../src/client/outcome.js';

const answer = (httpStatus: number, body: string | object, headers: Record<string, string> = {}, incomplete = false): ResponseView => ({
  httpStatus,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  incomplete,
});
const success = { status: 200, message: 'OK', result: { message_id: 'm-1' } };

describe('classifyResponse', () => {
  it('accepts the documented success body', () => {
    expect(classifyResponse(answer(200, success))).toMatchObject({ kind: 'accepted', messageId: 'm-1', httpStatus: 200 });
  });

  it('lets the body status decide whatever the HTTP status', () => {
    expect(classifyResponse(answer(400, { status: 21004, message: 'bad secret' }))).toMatchObject({
      kind: 'rejected', code: 21004, message: 'bad secret', httpStatus: 400,
    });
    expect(classifyResponse(answer(502, success))).toMatchObject({ kind: 'accepted' });
    expect(classifyResponse(answer(503, { status: 21005, message: 'x' }))).toMatchObject({ kind: 'rejected', code: 21005 });
    expect(classifyResponse(answer(200, { status: '21006', message: 'too many' }))).toMatchObject({ kind: 'rejected', code: 21006 });
  });

  it('treats 22001 as not processed, with Retry-After', () => {
    expect(classifyResponse(answer(200, { status: 22001, message: 'slow down' }, { 'retry-after': '2' }))).toMatchObject({
      kind: 'retryable', code: 22001, message: 'slow down', retryAfterMs: 2000,
    });
  });

  it.each([408, 429, 503])('retries HTTP %i without a service body', (status) => {
    expect(classifyResponse(answer(status, '<html>busy</html>'))).toMatchObject({ kind: 'retryable', httpStatus: status });
  });

  it.each([500, 502, 504])('is ambiguous about HTTP %i with an HTML page', (status) => {
    expect(classifyResponse(answer(status, '<html><body>Bad Gateway</body></html>'))).toMatchObject({ kind: 'in_doubt', httpStatus: status });
  });

  it.each([400, 401, 403, 404, 405])('treats HTTP %i with an HTML page as not processed, and not worth repeating', (status) => {
    expect(classifyResponse(answer(status, '<html><body>Not Found</body></html>'))).toMatchObject({ kind: 'retryable', permanent: true, httpStatus: status });
  });

  it.each([
    ['an empty body', ''],
    ['plain text', 'OK'],
    ['JSON without status', { ok: true }],
    ['status 200 without message_id', { status: 200, message: 'OK' }],
    ['an empty message_id', { status: 200, message: 'OK', result: { message_id: '' } }],
    ['a JSON array', [1, 2]],
    ['JSON null', 'null'],
  ])('is ambiguous about a 2xx with %s', (_what, body) => {
    expect(classifyResponse(answer(200, body))).toMatchObject({ kind: 'in_doubt', httpStatus: 200 });
  });

  // A message_id that is there but unusable is not "without a message_id": the reason says what is wrong with it.
  it.each([
    ['a raw control character (JSON allows it only escaped)', '{"status":200,"message":"OK","result":{"message_id":"m-\u001b[31m-1"}}', 'its message_id holds the control character U+001B unescaped, which JSON forbids'],
    ['a raw line break', '{"status":200,"message":"OK","result":{"message_id":"m-\n1"}}', 'its message_id holds the control character U+000A unescaped, which JSON forbids'],
    ['an empty message_id', JSON.stringify({ status: 200, message: 'OK', result: { message_id: '' } }), 'status 200 with an empty message_id'],
    ['a message_id of the wrong kind', JSON.stringify({ status: 200, message: 'OK', result: { message_id: { id: 1 } } }), 'status 200 with a message_id that is an object, not a string'],
    ['no message_id', JSON.stringify({ status: 200, message: 'OK' }), 'status 200 without a message_id'],
  ])('in doubt about a 200 with %s, saying why', (_what, body, reason) => {
    expect(classifyResponse(answer(200, body))).toMatchObject({ kind: 'in_doubt', reason: expect.stringContaining(reason) });
  });

  it('accepts a message_id whose control characters are escaped, as JSON writes them (printed inert)', () => {
    expect(classifyResponse(answer(200, { status: 200, message: 'OK', result: { message_id: 'm-\u001b-1' } }))).toMatchObject({ kind: 'accepted', messageId: 'm-\u001b-1' });
  });

  it('never trusts an incomplete body, even one that parses', () => {
    expect(classifyResponse(answer(200, success, {}, true))).toMatchObject({ kind: 'in_doubt' });
    expect(classifyResponse(answer(503, '', {}, true))).toMatchObject({ kind: 'retryable' });
  });

  it('refuses redirects and says where they pointed', () => {
    const outcome = classifyResponse(answer(307, '', { location: 'http://evil.example/steal' }));
    expect(outcome).toMatchObject({ kind: 'in_doubt', httpStatus: 307, redirectTo: 'http://evil.example/steal' });
  });
});

describe('classifyNetworkError', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])('retries %s', (errorCode) => {
    expect(classifyNetworkError({ errorCode, requestWritten: false, connected: false })).toMatchObject({ kind: 'retryable', errorCode });
  });

  it('tells a connect timeout from a timeout after sending', () => {
    expect(classifyNetworkError({ errorCode: 'TIMEOUT', requestWritten: false, connected: false })).toMatchObject({ kind: 'retryable', reason: 'connect timeout' });
    expect(classifyNetworkError({ errorCode: 'TIMEOUT', requestWritten: true, connected: true })).toMatchObject({ kind: 'in_doubt' });
  });

  it('is ambiguous about a reset after sending, not before', () => {
    expect(classifyNetworkError({ errorCode: 'ECONNRESET', requestWritten: true, connected: true })).toMatchObject({ kind: 'in_doubt' });
    expect(classifyNetworkError({ errorCode: 'ECONNRESET', requestWritten: false, connected: true })).toMatchObject({ kind: 'retryable' });
  });

  it('gives up at once on TLS certificate failures', () => {
    expect(classifyNetworkError({ errorCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', requestWritten: false, connected: true })).toMatchObject({
      kind: 'retryable', permanent: true,
    });
  });

  it('names the next step for a certificate no trusted CA signed (a private CA, the emulator\'s --tls-cert): NODE_EXTRA_CA_CERTS', () => {
    for (const errorCode of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']) {
      const outcome = classifyNetworkError({ errorCode, message: 'self-signed certificate', requestWritten: false, connected: true });
      expect(outcome, errorCode).toMatchObject({ kind: 'retryable', permanent: true, reason: expect.stringContaining('not signed by a CA that Node.js trusts') });
      expect(outcome.kind === 'retryable' && outcome.fix, errorCode).toMatch(/NODE_EXTRA_CA_CERTS=<ca\.pem>/);
    }
    // An expired certificate, or one for another host, is not fixed by trusting a CA.
    for (const errorCode of ['CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
      const outcome = classifyNetworkError({ errorCode, requestWritten: false, connected: true });
      expect(outcome.kind === 'retryable' && outcome.fix, errorCode).toBeUndefined();
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores nonsense', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});

describe('parseServiceBody', () => {
  it('reads the documented shape only', () => {
    expect(parseServiceBody('{"status":200,"message":"OK","result":{"message_id":"x"}}')).toEqual({ status: 200, message: 'OK', messageId: 'x' });
    expect(parseServiceBody('{"status":1.5}')).toBeUndefined();
    expect(parseServiceBody('<html>')).toBeUndefined();
  });
});
