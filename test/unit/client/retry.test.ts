import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptOutcome } from '../../../src/client/outcome.js';
import { backoffDelay, decideRetry } from '../../../src/client/retry.js';

const outcomeArb: fc.Arbitrary<AttemptOutcome> = fc.oneof(
  fc.record({ kind: fc.constant('accepted' as const), messageId: fc.string(), httpStatus: fc.constant(200) }),
  fc.record({ kind: fc.constant('rejected' as const), code: fc.integer({ min: 21000, max: 29999 }), message: fc.string(), httpStatus: fc.integer({ min: 100, max: 599 }) }),
  fc.record({ kind: fc.constant('in_doubt' as const), reason: fc.string() }),
  fc.record(
    { kind: fc.constant('retryable' as const), reason: fc.string(), retryAfterMs: fc.integer({ min: 0, max: 120_000 }), permanent: fc.boolean() },
    { requiredKeys: ['kind', 'reason'] },
  ),
);

describe('backoffDelay', () => {
  it('stays within [0, min(30 s, 1 s * 2^(attempt-1))) for any attempt and draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const delay = backoffDelay(attempt, random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(Math.min(30_000, 1000 * 2 ** (attempt - 1)));
        expect(Number.isInteger(delay)).toBe(true);
      }),
    );
  });

  it('grows exponentially up to the cap', () => {
    expect(backoffDelay(1, 0.999)).toBe(999);
    expect(backoffDelay(3, 0.5)).toBe(2000);
    expect(backoffDelay(10, 0.5)).toBe(15_000);
  });
});

describe('decideRetry', () => {
  it('never retries accepted, rejected or (by default) ambiguous outcomes', () => {
    fc.assert(
      fc.property(outcomeArb, fc.integer({ min: 1, max: 10 }), fc.double({ min: 0, max: 1, noNaN: true }), (outcome, attempt, random) => {
        const decision = decideRetry(outcome, attempt, random);
        if (outcome.kind !== 'retryable') expect(decision.retry).toBe(false);
      }),
    );
  });

  it('stops at 5 attempts, and keeps every delay within bounds', () => {
    fc.assert(
      fc.property(outcomeArb, fc.integer({ min: 1, max: 10 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (outcome, attempt, random, retryInDoubt) => {
        const decision = decideRetry(outcome, attempt, random, { retryInDoubt });
        if (attempt >= 5) expect(decision.retry).toBe(false);
        if (decision.retry) {
          const retryAfter = outcome.kind === 'retryable' ? (outcome.retryAfterMs ?? 0) : 0;
          expect(decision.delayMs).toBeGreaterThanOrEqual(retryAfter);
          expect(decision.delayMs).toBeLessThanOrEqual(60_000);
        }
      }),
    );
  });

  it('retries ambiguous outcomes only when asked, and never a redirect', () => {
    const ambiguous: AttemptOutcome = { kind: 'in_doubt', reason: 'HTTP 502', httpStatus: 502 };
    expect(decideRetry(ambiguous, 1, 0.5).retry).toBe(false);
    expect(decideRetry(ambiguous, 1, 0.5, { retryInDoubt: true })).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry({ ...ambiguous, redirectTo: 'https://x' }, 1, 0.5, { retryInDoubt: true }).retry).toBe(false);
  });

  it('honours Retry-After, and gives up when it is unreasonably long', () => {
    expect(decideRetry({ kind: 'retryable', reason: '429', retryAfterMs: 7000 }, 1, 0.5)).toEqual({ retry: true, delayMs: 7000 });
    expect(decideRetry({ kind: 'retryable', reason: '429', retryAfterMs: 100 }, 4, 0.5)).toEqual({ retry: true, delayMs: 4000 });
    expect(decideRetry({ kind: 'retryable', reason: '429', retryAfterMs: 3_600_000 }, 1, 0.5).retry).toBe(false);
  });

  it('does not retry what cannot succeed', () => {
    expect(decideRetry({ kind: 'retryable', reason: 'TLS', permanent: true }, 1, 0.5).retry).toBe(false);
  });
});
