import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PushClient } from '../../../src/client/push-client.js';
import { RateLimiter } from '../../../src/client/rate-limiter.js';
import { buildReport } from '../../../src/client/report.js';
import { leftIds } from '../../helpers/left-ids.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import type { PushMessage } from '../../../src/message/types.js';
import { closedPort, ok, startScriptedServer, type ScriptedServer, type Step } from '../../helpers/scripted-server.js';

const body: PushMessage = { type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Release 2.0' } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `client-${i}`);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(script: Step[] | Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(script);
  cleanups.push(() => server.close());
  return server;
}
function clientFor(baseUrl: string, timeoutMs = 5000): PushClient {
  const client = new PushClient({ baseUrl, appId: 'demo-app', appSecret: 'demo-secret', userAgent: 'pushctl/test', timeoutMs });
  cleanups.push(() => client.close());
  return client;
}
const sentIds = (server: ScriptedServer) => server.requests.flatMap((r) => (JSON.parse(r.body) as PushMessage).condition.client_ids ?? []);

describe('sendBatches against a scripted server', () => {
  it('sends 2,500 IDs in 3 batches, each ID once', async () => {
    const server = await serve((request) => ok(`m-${request.index}`));
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ids(2500) });
    expect(results.map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(server.requests).toHaveLength(3);
    expect(sentIds(server).sort()).toEqual(ids(2500).sort());
    expect(new Set(results.map((r) => r.messageId)).size).toBe(3);
  });

  it('retries 22001 to success and slows the shared limiter', async () => {
    const server = await serve([{ status: 200, body: { status: 22001, message: 'called too frequently' } }, ok('m-after')]);
    const limiter = new RateLimiter({ rate: 50 });
    const slowDown = vi.spyOn(limiter, 'slowDown');
    const sleep = vi.fn(async () => undefined);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ['a'], limiter, sleep });
    expect(results).toMatchObject([{ status: 'accepted', messageId: 'm-after', attempts: 2 }]);
    expect(server.requests).toHaveLength(2);
    expect(slowDown).toHaveBeenCalledTimes(1);
    expect(limiter.effectiveRate).toBeLessThan(50);
  });

  it('waits at least Retry-After on a 429 before retrying', async () => {
    const server = await serve([{ status: 429, headers: { 'Retry-After': '2' }, body: 'Too Many Requests' }, ok()]);
    const sleep = vi.fn(async () => undefined);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ['a'], sleep, random: () => 0.1 });
    expect(results).toMatchObject([{ status: 'accepted', attempts: 2 }]);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect((sleep.mock.calls[0] as unknown[])[0]).toBe(2000);
  });

  it('marks a batch answered 500 unknown and sends it once', async () => {
    const server = await serve([{ status: 500, body: '<html>Internal Server Error</html>' }]);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ['a', 'b'], sleep: async () => undefined });
    expect(results).toMatchObject([{ status: 'in_doubt', attempts: 1 }]);
    expect(server.requests).toHaveLength(1);
    expect(leftIds(results)).toEqual(['a', 'b']);
  });

  it('marks a batch whose server never answers unknown, sent once within the timeout', async () => {
    const server = await serve([{ action: 'hang' }]);
    const results = await sendBatches({ client: clientFor(server.url, 200), body, clientIds: ['a'], sleep: async () => undefined });
    expect(results).toMatchObject([{ status: 'in_doubt', attempts: 1 }]);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a refused connection on loopback (nothing listens there), and reports the batch not sent', async () => {
    // A remote refusal is retried five times: test/unit/client/send-batches.test.ts and classify-refused.test.ts.
    const port = await closedPort();
    const sleep = vi.fn(async () => undefined);
    const results = await sendBatches({ client: clientFor(`http://127.0.0.1:${port}`), body, clientIds: ['a'], sleep });
    expect(results).toMatchObject([{ status: 'not_sent', attempts: 1 }]);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('reports a mid-run rejection so that the IDs add up to exactly the input', async () => {
    const server = await serve((request) => (request.index === 1 ? { status: 400, body: { status: 21005, message: 'message illegal' } } : ok(`m-${request.index}`)));
    const input = ids(2500);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: input, concurrency: 1 });
    const report = buildReport(results);
    expect(report.summary.batches).toMatchObject({ accepted: 2, rejected: 1 });
    expect(report.rejected).toMatchObject([{ code: 21005, meaning: 'message illegal', message: 'message illegal' }]);
    const listed = [report.accepted, report.rejected, report.in_doubt, report.not_sent].flat().flatMap((e) => e.client_ids);
    expect(listed.sort()).toEqual([...input].sort());
  });

  it('stops starting batches when the service refuses the app itself, every batch not_sent, the refused one too', async () => {
    const server = await serve([{ status: 200, body: { status: 21004, message: 'App Secret illegal' } }]);
    const input = ids(5000);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: input, concurrency: 1 });
    expect(server.requests).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(['not_sent', 'not_sent', 'not_sent', 'not_sent', 'not_sent']);
    // The refused batch keeps the service's code (exit 4, the hint); the service delivered none of it.
    expect(results[0]).toMatchObject({ code: 21004, attempts: 1 });
    expect(results[1]!.reason).toContain('21004 App Secret illegal');
    // Once the app is fixed, the resend reaches everyone: the refused batch's recipients too.
    expect(leftIds(results)).toEqual(input);
  });

  it('keeps going after a rejection of one batch only (21005)', async () => {
    const server = await serve([{ status: 200, body: { status: 21005, message: 'bad' } }, ok('m-1')]);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ids(3000), concurrency: 1 });
    expect(results.map((r) => r.status)).toEqual(['rejected', 'accepted', 'accepted']);
  });

  it('at rate 20, no one-second window holds more than 20 request starts (server clock)', async () => {
    const server = await serve([ok()]);
    const limiter = new RateLimiter({ rate: 20 });
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ids(45), batchSize: 1, limiter, concurrency: 8 });
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
    const times = server.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(times).toHaveLength(45);
    for (let i = 0; i + 20 < times.length; i++) {
      const inWindow = times.filter((t) => t >= times[i]! && t <= times[i]! + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(20);
    }
  });

  it('keeps the unfinished batches as not_sent when interrupted mid-run', async () => {
    const controller = new AbortController();
    const server = await serve((request) => {
      if (request.index === 2) controller.abort();
      return ok(`m-${request.index}`);
    });
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ids(100), batchSize: 10, concurrency: 1, signal: controller.signal });
    const report = buildReport(results);
    expect(report.summary.batches).toMatchObject({ accepted: 3, not_sent: 7 });
    expect(server.requests).toHaveLength(3);
    expect(leftIds(results)).toEqual(ids(100).slice(30));
  });

  it('delivers 50,000 IDs without a rate limit (bounded load)', async () => {
    const server = await serve((request) => ok(`m-${request.index}`));
    const input = ids(50_000);
    const results = await sendBatches({ client: clientFor(server.url), body, clientIds: input, concurrency: 8 });
    expect(results).toHaveLength(50);
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
    expect(sentIds(server)).toHaveLength(50_000);
    expect(server.connections()).toBeLessThanOrEqual(8);
  });

  it('has more than 8 requests in flight when answers take 300 ms at rate 50 (counted by the server)', async () => {
    // A server that answers every push after 300 ms and counts how many it holds at once.
    let holding = 0;
    let peak = 0;
    let answered = 0;
    const server = http.createServer((req, res) => {
      holding += 1;
      peak = Math.max(peak, holding);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          holding -= 1;
          answered += 1;
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 200, message: 'OK', result: { message_id: `m-${answered}` } }));
        }, 300),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // No concurrency given: the number in flight follows the latency.
    const results = await sendBatches({ client: clientFor(url), body, clientIds: ids(60), batchSize: 1, limiter: new RateLimiter({ rate: 50 }) });
    expect(results.every((r) => r.status === 'accepted')).toBe(true);
    expect(answered).toBe(60);
    expect(peak).toBeGreaterThan(8);
    // Bounded by the pace: 50 a second spaced over 0.73 s, each held 0.3 s, is about 20 at once.
    expect(peak).toBeLessThanOrEqual(40);
  });
});

describe('many requests in flight', () => {
  it('warn of no listener leak: every request listens on the stop signals (Node warns past 10)', async () => {
    const server = await serve(() => ({ ...ok(), delayMs: 50 }));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      const stopNow = new AbortController();
      const results = await sendBatches({ client: clientFor(server.url), body, clientIds: ids(30), batchSize: 1, concurrency: 30, signal: stop.signal, stopNow: stopNow.signal });
      expect(results.every((r) => r.status === 'accepted')).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

