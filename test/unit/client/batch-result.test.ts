import { describe, expect, it } from 'vitest';
import { batchResult, recipientCount, settle } from '../../../src/client/batch-result.js';
import { accepted, ambiguous, rejected, retryable } from './fake-sender.js';

describe('settle: a batch’s last outcome as its status', () => {
  it('maps the four kinds of outcome', () => {
    expect(settle(1, accepted('m'), undefined, undefined)).toMatchObject({ status: 'accepted', messageId: 'm' });
    expect(settle(1, rejected(21005), undefined, undefined)).toMatchObject({ status: 'rejected', code: 21005 });
    expect(settle(1, ambiguous(), undefined, undefined)).toMatchObject({ status: 'in_doubt', reason: 'HTTP 502' });
    expect(settle(3, retryable(22001), undefined, undefined)).toMatchObject({ status: 'not_sent', code: 22001, reason: 'rate limited (after 3 attempts)' });
  });

  it('is not sent without an attempt, and in doubt after an earlier maybe-delivered one', () => {
    expect(settle(0, undefined, 'stopped', undefined)).toEqual({ attempts: 0, status: 'not_sent', reason: 'stopped' });
    expect(settle(2, retryable(), undefined, 'HTTP 502').status).toBe('in_doubt');
  });

  it('drops the raw response from the outcome it keeps', () => {
    const kept = settle(1, { ...accepted(), response: { status: 200, headers: {}, body: '{}' } } as never, undefined, undefined);
    expect(kept.outcome).not.toHaveProperty('response');
  });
});

describe('batchResult', () => {
  it('reads its client IDs on each access and counts them without making them', () => {
    let reads = 0;
    const result = batchResult(4, () => (reads++, ['a', 'b']), 2, { status: 'accepted', attempts: 1 });
    expect(recipientCount(result)).toBe(2);
    expect(reads).toBe(0);
    expect({ ...result }).toMatchObject({ index: 4, clientIds: ['a', 'b'], status: 'accepted' });
    result.clientIds = ['c'];
    expect(recipientCount(result)).toBe(1);
  });
});
