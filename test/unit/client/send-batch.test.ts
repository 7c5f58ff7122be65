import { describe, expect, it } from 'vitest';
import { sendBatch, type AttemptEvent, type BatchSending } from '../../../src/client/send-batch.js';
import { SendWindow } from '../../../src/client/send-window.js';
import { accepted, ambiguous, FakeSender, rejected, retryable } from './fake-sender.js';
import { VirtualClock } from './virtual-clock.js';
import type { AttemptOutcome } from '../../../src/client/outcome.js';

/** One batch's parts, with a client answering `answers` in turn and a virtual clock for the backoff. */
function parts(answers: AttemptOutcome[], more: Partial<BatchSending> = {}): { s: BatchSending; events: AttemptEvent[]; clock: VirtualClock } {
  const clock = new VirtualClock();
  const events: AttemptEvent[] = [];
  const s: BatchSending = {
    client: new FakeSender((_b, call) => answers[Math.min(call, answers.length - 1)]!),
    limiter: undefined,
    window: new SendWindow(undefined, undefined),
    changed: () => undefined,
    run: { halted: undefined, requests: 0 },
    retry: undefined,
    signal: undefined,
    stopNow: undefined,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    onAttemptStart: undefined,
    onAttempt: (event) => events.push(event),
    ...more,
  };
  return { s, events, clock };
}

async function settled(s: BatchSending, clock: VirtualClock) {
  const sending = sendBatch(s, 0, { to: 'x' });
  await clock.run();
  return sending;
}

describe('sendBatch: one batch under the retry policy', () => {
  it('retries what the service cannot have processed, announcing each delay, until accepted', async () => {
    const { s, events, clock } = parts([retryable(), retryable(22001), accepted('m-1')]);
    expect(await settled(s, clock)).toMatchObject({ status: 'accepted', attempts: 3, messageId: 'm-1' });
    expect(events.map((e) => [e.attempt, e.retryInMs !== undefined])).toEqual([[1, true], [2, true], [3, false]]);
    expect(s.run.requests).toBe(3);
  });

  it('does not retry a rejection or a maybe-delivered answer by default', async () => {
    const a = parts([rejected(21005)]);
    expect(await settled(a.s, a.clock)).toMatchObject({ status: 'rejected', attempts: 1, code: 21005 });
    const b = parts([ambiguous()]);
    expect(await settled(b.s, b.clock)).toMatchObject({ status: 'in_doubt', attempts: 1 });
  });

  it('gives up after the policy’s attempts, not sent', async () => {
    const { s, clock } = parts([retryable()], { retry: { maxAttempts: 2 } });
    expect(await settled(s, clock)).toMatchObject({ status: 'not_sent', attempts: 2, reason: expect.stringContaining('after 2 attempts') });
  });

  it('keeps an earlier maybe-delivered attempt in doubt with --retry-in-doubt', async () => {
    const { s, clock } = parts([ambiguous(), retryable()], { retry: { retryInDoubt: true, maxAttempts: 2 } });
    expect(await settled(s, clock)).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining('an earlier attempt may have been delivered') });
  });

  it('makes no request when the attempt cannot be recorded first, and halts the run', async () => {
    const { s, clock } = parts([accepted()], { onAttemptStart: () => { throw new Error('disk full'); } });
    expect(await settled(s, clock)).toMatchObject({ status: 'not_sent', attempts: 0, reason: 'disk full' });
    expect(s.run).toEqual({ halted: 'disk full', requests: 0 });
  });

  it('makes no request once the run is halted', async () => {
    const { s, clock } = parts([accepted()], { run: { halted: 'the service refused the app', requests: 0 } });
    expect(await settled(s, clock)).toMatchObject({ status: 'not_sent', attempts: 0, reason: 'the service refused the app' });
  });

  it('stops before a retry when the run is interrupted', async () => {
    const stop = new AbortController();
    const { s, clock } = parts([retryable()], { signal: stop.signal, onAttempt: () => stop.abort() });
    expect(await settled(s, clock)).toMatchObject({ status: 'not_sent', attempts: 1, reason: expect.stringContaining('interrupted before a retry') });
  });
});
