// A plan that grows as the input is read (docs/behaviour.md#rate): each batch goes out once it is planned, and the
// run ends only when the plan is complete or stopped.
import { describe, expect, it, vi } from 'vitest';
import type { PushMessage } from '../../../src/message/types.js';
import { BatchPlan } from '../../../src/client/batches.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import { accepted, FakeSender, idsOf } from './fake-sender.js';

const body: PushMessage = { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Hi' } };
const noSleep = vi.fn(async () => undefined);
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A growing list of IDs, as the client-ID reader fills it. */
function growing() {
  const ids: string[] = [];
  return { ids, source: { get length() { return ids.length; }, slice: (s: number, e: number) => ids.slice(s, e) } };
}

describe('BatchPlan', () => {
  it('plans full batches as recipients arrive and the short one at the end', () => {
    const plan = new BatchPlan(3);
    expect(plan.extend(2)).toEqual([]);
    expect(plan.extend(7)).toEqual([[0, 3], [3, 6]]);
    expect(plan.open).toBe(true);
    expect(plan.extend(8, true)).toEqual([[6, 8]]);
    expect(plan).toMatchObject({ complete: true, recipients: 8, ranges: [[0, 3], [3, 6], [6, 8]] });
    expect(() => plan.extend(9)).toThrow(/closed/);
  });

  it('a plan of a known list is complete at once; none gives the one batch of an audience', () => {
    expect(BatchPlan.of(2500, 1000)).toMatchObject({ complete: true, ranges: [[0, 1000], [1000, 2000], [2000, 2500]] });
    expect(BatchPlan.of(0)).toMatchObject({ complete: true, ranges: [[0, 0]] });
  });

  it('holds a plan of 300,000 one-ID batches, known or grown at once', () => {
    expect(BatchPlan.of(300_000, 1).ranges).toHaveLength(300_000);
    expect(new BatchPlan(1).extend(300_000, true)).toHaveLength(300_000);
  });

  it('refuses a batch size the service would not take', () => {
    expect(() => new BatchPlan(1001)).toThrow(RangeError);
  });
});

describe('sendBatches with a growing plan', () => {
  it('sends the first batch before the input is read to its end, and every batch once', async () => {
    const { ids, source } = growing();
    const plan = new BatchPlan(2);
    const client = new FakeSender((_b, call) => accepted(`m-${call}`));
    const run = sendBatches({ client, body, clientIds: source, plan, sleep: noSleep });
    ids.push('a', 'b', 'c');
    plan.extend(ids.length);
    await tick();
    // The input is still open, and the batch already read has gone out.
    expect(client.bodies.map(idsOf)).toEqual([['a', 'b']]);
    ids.push('d', 'e');
    plan.extend(ids.length, true);
    const results = await run;
    expect(client.bodies.map(idsOf)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(results.map((r) => [r.status, r.clientIds])).toEqual([['accepted', ['a', 'b']], ['accepted', ['c', 'd']], ['accepted', ['e']]]);
  });

  it('ends when the input fails: what was planned is sent, nothing more', async () => {
    const { ids, source } = growing();
    const plan = new BatchPlan(2);
    const client = new FakeSender(() => accepted());
    const run = sendBatches({ client, body, clientIds: source, plan, sleep: noSleep });
    ids.push('a', 'b', 'c');
    plan.extend(ids.length);
    await tick();
    plan.stop('line 4 is not a client ID');
    const results = await run;
    expect(results.map((r) => r.clientIds)).toEqual([['a', 'b']]);
    expect(client.bodies).toHaveLength(1);
  });

  it('interrupted while the input is read: starts nothing more, but lists every batch the rest of the input makes', async () => {
    const { ids, source } = growing();
    const plan = new BatchPlan(2);
    const stop = new AbortController();
    const client = new FakeSender(() => accepted());
    const run = sendBatches({ client, body, clientIds: source, plan, signal: stop.signal, sleep: noSleep });
    ids.push('a', 'b');
    plan.extend(ids.length);
    await tick();
    stop.abort();
    await tick();
    ids.push('c', 'd', 'e');
    plan.extend(ids.length, true);
    const results = await run;
    expect(client.bodies).toHaveLength(1);
    expect(results.map((r) => [r.status, r.clientIds.length])).toEqual([['accepted', 2], ['not_sent', 2], ['not_sent', 1]]);
    expect(results[2]!.reason).toMatch(/interrupted/);
  });

  it('a second signal (stop now) does not wait for the rest of the input', async () => {
    const { ids, source } = growing();
    const plan = new BatchPlan(2);
    const stopNow = new AbortController();
    const client = new FakeSender(() => accepted());
    const run = sendBatches({ client, body, clientIds: source, plan, signal: stopNow.signal, stopNow: stopNow.signal, sleep: noSleep });
    ids.push('a', 'b');
    plan.extend(ids.length);
    await tick();
    stopNow.abort();
    const results = await run;
    expect(plan.open).toBe(true);
    expect(results.map((r) => r.status)).toEqual(['accepted']);
  });
});
