// For arbitrary answers (HTTP status × body text × headers × where the connection broke), classification
// never throws, and a batch is accepted only when the body is the documented success (issue 11).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyNetworkError, classifyResponse } from '../../../src/client/classify.js';

const success = (id: unknown) => JSON.stringify({ status: 200, message: 'OK', result: { message_id: id } });
const bodyText = fc.oneof(
  fc.string(),
  fc.json(),
  fc.constantFrom('', 'null', '[]', '<html>Bad Gateway</html>', '{"status":503}', '{"status":500,"error":"x"}', '{"status":"200","result":{"message_id":"a"}}', '{"status":200}'),
  fc.oneof(fc.string(), fc.integer(), fc.bigInt().map((n) => n), fc.constant(null)).map((id) => (typeof id === 'bigint' ? success('X').replace('"X"', id.toString()) : success(id))),
  fc.record({ status: fc.oneof(fc.integer(), fc.string(), fc.double()), message: fc.oneof(fc.string(), fc.integer()), result: fc.jsonValue() }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
  // A prefix of a valid answer: the connection broke mid-body.
  fc.tuple(fc.string({ minLength: 1 }), fc.nat()).map(([id, cut]) => success(id).slice(0, cut)),
);
const headers = fc.dictionary(fc.constantFrom('retry-after', 'location', 'content-type', 'x-any'), fc.oneof(fc.string(), fc.constantFrom('2', '0.5', 'Wed, 21 Oct 2015 07:28:00 GMT', '-1', '1e309')));

/** The documented success: a complete JSON object, status 200, a non-empty message_id. */
function isDocumentedSuccess(body: string): boolean {
  try {
    const json = JSON.parse(body) as { status?: unknown; result?: { message_id?: unknown } };
    const id = json?.result?.message_id;
    return (json.status === 200 || json.status === '200') && ((typeof id === 'string' && id !== '') || typeof id === 'number');
  } catch {
    return false;
  }
}

describe('classification of arbitrary answers (property)', () => {
  it('never throws, and accepts only the documented success, complete', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), bodyText, headers, fc.boolean(), (httpStatus, body, hdrs, incomplete) => {
        const outcome = classifyResponse({ httpStatus, headers: hdrs, body, incomplete });
        expect(['accepted', 'rejected', 'retryable', 'in_doubt']).toContain(outcome.kind);
        if (outcome.kind === 'accepted') {
          expect(incomplete).toBe(false);
          expect(isDocumentedSuccess(body)).toBe(true);
          const id = (JSON.parse(body) as { result: { message_id: unknown } }).result.message_id;
          // A string as it is; a number exactly as written (every digit), never as JavaScript rounds it.
          if (typeof id === 'string') expect(outcome.messageId).toBe(id);
          else expect(body).toMatch(new RegExp(`"message_id":${outcome.messageId.replace(/[.+]/g, '\\$&')}[,}]`));
        }
        if (outcome.kind === 'rejected') expect(outcome.code >= 10_000 && outcome.code <= 99_999).toBe(true);
        if (outcome.kind === 'retryable' && outcome.retryAfterMs !== undefined) expect(outcome.retryAfterMs).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('a failure without an answer is never accepted, and is retryable whenever the request was not all written', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ENOTFOUND', 'TIMEOUT', 'ETIMEDOUT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO'), fc.string()),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.string(), { nil: undefined }),
        (errorCode, requestWritten, connected, message) => {
          const outcome = classifyNetworkError({ errorCode, requestWritten, connected, ...(message !== undefined ? { message } : {}) });
          expect(['retryable', 'in_doubt']).toContain(outcome.kind);
          if (!requestWritten) expect(outcome.kind).toBe('retryable');
        },
      ),
      { numRuns: 1000 },
    );
  });
});
