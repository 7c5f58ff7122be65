import { describe, expect, it, vi } from 'vitest';
import type { PushMessage } from '../../../src/message/types.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import { RateLimiter } from '../../../src/client/rate-limiter.js';
import { accepted, ambiguous, FakeSender, idsOf, peakCountingSender, rejected, retryable } from './fake-sender.js';
import { VirtualClock } from './virtual-clock.js';

const body: PushMessage = { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Hi' } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
const noSleep = vi.fn(async () => undefined);

describe('sendBatches', () => {
  it('sends 2500 IDs in three batches with the message around each', async () => {
    const client = new FakeSender((_b, call) => accepted(`m-${call}`));
    const results = await sendBatches({ client, body, clientIds: ids(2500), sleep: noSleep });
    expect(results.map((r) => [r.status, r.clientIds.length])).toEqual([['accepted', 1000], ['accepted', 1000], ['accepted', 500]]);
    expect(client.bodies.flatMap(idsOf).sort()).toEqual(ids(2500).sort());
    for (const sent of client.bodies) {
      expect(sent).toMatchObject({ type: 1, time_to_live: 3600, notification: { title: 'Hi' }, condition: { type: 2 } });
    }
  });

  it('sends a message to all devices as one request, untouched', async () => {
    const all: PushMessage = { type: 2, time_to_live: 60, condition: { type: 0 }, data: { a: 'b' } };
    const client = new FakeSender(() => accepted('m-all'));
    const results = await sendBatches({ client, body: all });
    expect(client.bodies).toEqual([all]);
    expect(results).toMatchObject([{ status: 'accepted', messageId: 'm-all', clientIds: [], attempts: 1 }]);
  });

  it('retries not-processed outcomes with backoff, then succeeds', async () => {
    const sleep = vi.fn(async () => undefined);
    const client = new FakeSender((_b, call) => (call < 2 ? retryable() : accepted()));
    const [result] = await sendBatches({ client, body, clientIds: ['a'], sleep, random: () => 0.5 });
    expect(result).toMatchObject({ status: 'accepted', attempts: 3 });
    expect(sleep.mock.calls.map((call) => (call as unknown[])[0])).toEqual([500, 1000]);
  });

  it('gives up after 5 attempts and reports the batch not sent', async () => {
    const client = new FakeSender(() => retryable());
    const [result] = await sendBatches({ client, body, clientIds: ['a'], sleep: noSleep });
    expect(result).toMatchObject({ status: 'not_sent', attempts: 5 });
    expect(result!.reason).toMatch(/ECONNREFUSED.*5 attempts/);
  });

  it('slows the shared limiter on 22001 and keeps the code when it never clears', async () => {
    const limiter = { acquire: vi.fn(async () => undefined), slowDown: vi.fn() };
    const client = new FakeSender(() => retryable(22001));
    const [result] = await sendBatches({ client, body, clientIds: ['a'], limiter, sleep: noSleep });
    expect(limiter.slowDown).toHaveBeenCalledTimes(5);
    expect(limiter.acquire).toHaveBeenCalledTimes(5);
    expect(result).toMatchObject({ status: 'not_sent', code: 22001, message: 'too fast' });
  });

  it('sends an ambiguous batch once and marks it unknown; retries it only when asked', async () => {
    const once = new FakeSender(() => ambiguous());
    expect(await sendBatches({ client: once, body, clientIds: ['a'], sleep: noSleep })).toMatchObject([{ status: 'in_doubt', attempts: 1 }]);
    const twice = new FakeSender((_b, call) => (call === 0 ? ambiguous() : accepted()));
    const results = await sendBatches({ client: twice, body, clientIds: ['a'], sleep: noSleep, retry: { retryInDoubt: true } });
    expect(results).toMatchObject([{ status: 'accepted', attempts: 2 }]);
  });

  it('keeps a batch unknown when an earlier ambiguous attempt may have been delivered', async () => {
    const client = new FakeSender((_b, call) => (call === 0 ? ambiguous() : retryable()));
    const [result] = await sendBatches({ client, body, clientIds: ['a'], sleep: noSleep, retry: { retryInDoubt: true } });
    expect(result).toMatchObject({ status: 'in_doubt', attempts: 5 });
    expect(result!.reason).toMatch(/earlier attempt may have been delivered/);
  });

  it('never retries a rejection', async () => {
    const client = new FakeSender(() => rejected(21005));
    expect(await sendBatches({ client, body, clientIds: ids(3), batchSize: 1, sleep: noSleep })).toMatchObject([
      { status: 'rejected', code: 21005, attempts: 1 },
      { status: 'rejected', code: 21005, attempts: 1 },
      { status: 'rejected', code: 21005, attempts: 1 },
    ]);
    expect(client.bodies).toHaveLength(3);
  });

  it('never runs more than `concurrency` requests at once', async () => {
    const { client, peak } = peakCountingSender();
    await sendBatches({ client, body, clientIds: ids(50), batchSize: 1, concurrency: 3 });
    expect(peak()).toBe(3);
  });

  it('on abort, starts nothing new, lets in-flight batches finish, and marks the rest not sent', async () => {
    const controller = new AbortController();
    const release: (() => void)[] = [];
    const client = new FakeSender(
      () => new Promise((resolve) => release.push(() => resolve(accepted()))),
    );
    const run = sendBatches({ client, body, clientIds: ids(10), batchSize: 1, concurrency: 2, signal: controller.signal });
    await vi.waitFor(() => expect(release).toHaveLength(2));
    controller.abort();
    release.forEach((go) => go());
    const results = await run;
    expect(client.bodies).toHaveLength(2);
    expect(results.map((r) => r.status)).toEqual(['accepted', 'accepted', ...Array(8).fill('not_sent')]);
    expect(results[5]).toMatchObject({ attempts: 0, reason: 'interrupted before this batch was sent' });
  });

  it('stops retrying on abort during a backoff and reports the batch not sent', async () => {
    const controller = new AbortController();
    const sleep = vi.fn(async () => {
      controller.abort();
      throw new Error('aborted');
    });
    const client = new FakeSender(() => retryable());
    const [result] = await sendBatches({ client, body, clientIds: ['a'], sleep, signal: controller.signal });
    expect(result).toMatchObject({ status: 'not_sent', attempts: 1 });
  });

  it('reports progress after every batch and every attempt for --verbose', async () => {
    const onProgress = vi.fn();
    const onAttempt = vi.fn();
    const client = new FakeSender((_b, call) => (call === 0 ? retryable() : accepted()));
    await sendBatches({ client, body, clientIds: ids(5), batchSize: 2, concurrency: 1, sleep: noSleep, random: () => 0, onProgress, onAttempt });
    expect(onProgress).toHaveBeenCalledTimes(3);
    expect(onProgress.mock.lastCall![0]).toMatchObject({ batchesDone: 3, batchesTotal: 3, recipientsDone: 5, recipientsTotal: 5, requests: 4 });
    expect(onAttempt).toHaveBeenCalledTimes(4);
    expect(onAttempt.mock.calls[0]![0]).toMatchObject({ batch: 0, attempt: 1, retryInMs: 0 });
  });

  /** A run of `batches` one-ID batches at rate 50 against a sender that answers after `latencyMs` of virtual time. */
  async function slowRun(latencyMs: number, batches: number, concurrency?: number) {
    const clock = new VirtualClock();
    const { client, peak } = peakCountingSender(() => clock.sleep(latencyMs));
    const limiter = new RateLimiter({ rate: 50, now: clock.now, sleep: clock.sleep });
    const run = sendBatches({ client, body, clientIds: ids(batches), batchSize: 1, limiter, now: clock.now, sleep: clock.sleep, ...(concurrency ? { concurrency } : {}) });
    await clock.run();
    const results = await run;
    return { peak: peak(), results, lastAnswer: clock.now() };
  }

  it('keeps as many requests in flight as the rate and the latency need (Little\'s law)', async () => {
    const slow = await slowRun(300, 200);
    // 50 a second spaced over 0.73 s of each second, answered after 0.3 s: about 20 at once, where a fixed 8
    // carried only 8 / 0.3 s = 27 a second.
    expect(slow.peak).toBeGreaterThan(8);
    expect(slow.peak).toBeLessThanOrEqual(30);
    expect(slow.results.every((r) => r.status === 'accepted')).toBe(true);
    // Quick answers need few.
    expect((await slowRun(5, 100)).peak).toBeLessThanOrEqual(4);
  });

  it('keeps --concurrency as a cap on the number in flight', async () => {
    const capped = await slowRun(300, 60, 5);
    expect(capped.peak).toBe(5);
  });

  it('keeps 8 in flight with no rate to size by (--rate 0), or --concurrency when given', async () => {
    const peakOf = async (concurrency?: number) => {
      const { client, peak } = peakCountingSender();
      await sendBatches({ client, body, clientIds: ids(40), batchSize: 1, limiter: new RateLimiter({ rate: 0 }), ...(concurrency ? { concurrency } : {}) });
      return peak();
    };
    expect(await peakOf()).toBe(8);
    expect(await peakOf(20)).toBe(20);
  });
});
