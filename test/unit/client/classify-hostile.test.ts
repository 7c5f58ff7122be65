// Answers that look like the service's JSON but are not its verdict (issue 11, "Answers").
import { describe, expect, it } from 'vitest';
import { classifyNetworkError, classifyResponse, parseServiceBody } from '../../../src/client/classify.js';
import type { ResponseView } from '../../../src/client/outcome.js';

const answer = (httpStatus: number, body: string): ResponseView => ({ httpStatus, headers: {}, body, incomplete: false });

describe('only the service codes are the service verdict', () => {
  it("retries a gateway's HTTP 503 with a JSON status 503", () => {
    expect(classifyResponse(answer(503, '{"status":503,"error":"Service Unavailable"}'))).toMatchObject({ kind: 'retryable', httpStatus: 503 });
  });

  it('marks HTTP 500 with a JSON status 500 unknown, not rejected', () => {
    expect(classifyResponse(answer(500, '{"status":500}'))).toMatchObject({ kind: 'in_doubt', httpStatus: 500 });
  });

  it.each([400, 404, 999, 0, -21005, 210050, 1234])('does not read status %i as a service code', (status) => {
    expect(parseServiceBody(JSON.stringify({ status, message: 'x' }))).toBeUndefined();
  });

  it('still reads five-digit service codes and 200', () => {
    expect(parseServiceBody('{"status":21005,"message":"illegal"}')).toMatchObject({ status: 21005 });
    expect(parseServiceBody('{"status":22001}')).toMatchObject({ status: 22001 });
    expect(parseServiceBody('{"status":200,"result":{"message_id":"a"}}')).toMatchObject({ status: 200, messageId: 'a' });
  });
});

describe('a numeric message_id keeps every digit', () => {
  it('reads the number from the raw text', () => {
    const body = '{"status":200,"message":"OK","result":{"message_id":98765432109876543210}}';
    expect(classifyResponse(answer(200, body))).toMatchObject({ kind: 'accepted', messageId: '98765432109876543210' });
  });

  it('keeps the raw form of a number with a fraction or exponent, and ignores a message_id elsewhere', () => {
    expect(parseServiceBody('{"message":"message_id: 1","status":200,"result":{"message_id" : 1.50e3}}')).toMatchObject({ messageId: '1.50e3' });
    expect(parseServiceBody('{"status":200,"x":{"message_id":1},"result":{"message_id":2}}')).toMatchObject({ messageId: '2' });
  });

  it('takes the last of duplicate keys, as JSON.parse does, and survives an answer nested thousands deep', () => {
    expect(parseServiceBody('{"status":200,"result":{"message_id":1,"message_id":22}}')).toMatchObject({ messageId: '22' });
    const deep = `{"status":200,"result":{"message_id":7},"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseServiceBody(deep)).toMatchObject({ status: 200, messageId: '7' });
  });
});

describe('a write that failed', () => {
  it('EPIPE is not processed even if the request looked written: the failing write was part of it', () => {
    expect(classifyNetworkError({ errorCode: 'EPIPE', requestWritten: true, connected: true })).toMatchObject({ kind: 'retryable', errorCode: 'EPIPE' });
    expect(classifyNetworkError({ errorCode: 'EPIPE', requestWritten: false, connected: true })).toMatchObject({ kind: 'retryable' });
  });
});
