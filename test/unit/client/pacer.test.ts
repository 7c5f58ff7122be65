import { describe, expect, it } from 'vitest';
import { takeTurn, type Pacer } from '../../../src/client/pacer.js';
import { accepted, retryable } from './fake-sender.js';

/** A limiter that records what it is told. */
function recordingLimiter(startAt: number | void, refuse = false): Pacer & { slowed: (number | undefined)[]; left: [number, number][] } {
  const slowed: (number | undefined)[] = [];
  const left: [number, number][] = [];
  return {
    slowed,
    left,
    acquire: async () => {
      if (refuse) throw new Error('aborted');
      return startAt;
    },
    slowDown: (at) => slowed.push(at),
    departed: (at, when) => left.push([at, when]),
  };
}

describe('takeTurn', () => {
  it('goes at once without a limiter, with nothing to report back', async () => {
    const turn = await takeTurn(undefined, undefined, () => 0);
    expect(turn?.departed).toBeUndefined();
    expect(() => turn?.answered(retryable(22001))).not.toThrow();
  });

  it('is undefined when the wait for the limiter was stopped', async () => {
    expect(await takeTurn(recordingLimiter(5, true), undefined, () => 0)).toBeUndefined();
  });

  it('tells the limiter when the request left, and slows it down on a 22001 only', async () => {
    const limiter = recordingLimiter(40);
    const turn = (await takeTurn(limiter, undefined, () => 47))!;
    turn.departed?.();
    expect(limiter.left).toEqual([[40, 47]]);
    turn.answered(accepted());
    turn.answered(retryable());
    turn.answered(retryable(22002));
    expect(limiter.slowed).toEqual([]);
    turn.answered(retryable(22001));
    expect(limiter.slowed).toEqual([40]);
  });

  it('reports no departure when the limiter gave no start time', async () => {
    const limiter = recordingLimiter(undefined);
    const turn = (await takeTurn(limiter, undefined, () => 1))!;
    expect(turn.departed).toBeUndefined();
    turn.answered(retryable(22001));
    expect(limiter.slowed).toEqual([undefined]);
  });
});
