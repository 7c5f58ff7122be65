// A bounded load on loopback: every request is answered, none fails, and memory stays bounded by `keep`.
// Speed is measured by bench/emulator-load.mjs, never asserted here.
import { Agent, request } from 'node:http';
import { expect, it } from 'vitest';
import { createEmulator } from '../../../src/emulator/index.js';

const TOTAL = 2000;
const CONCURRENCY = 20;

it(`answers ${TOTAL} requests from ${CONCURRENCY} keep-alive clients without an error`, async () => {
  const emu = await createEmulator({ port: 0, rate: 0, keep: 100 });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({
    type: 1,
    time_to_live: 60,
    condition: { type: 2, client_ids: Array.from({ length: 50 }, (_, i) => `client-${i}`) },
    notification: { title: 'Load', desc: 'test' },
  });
  const statuses = new Map<string, number>();
  const errors: string[] = [];
  const post = () =>
    new Promise<void>((resolve) => {
      const req = request(
        `${emu.url}/v1/message/push/demo-app`,
        { method: 'POST', agent, headers: { authorization: 'demo-secret', 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const key = `${res.statusCode}/${(JSON.parse(Buffer.concat(chunks).toString()) as { status: number }).status}`;
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', (error) => {
        errors.push(error.message);
        resolve();
      });
      req.end(body);
    });
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      next += 1;
      await post();
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(errors).toEqual([]);
    expect(Object.fromEntries(statuses)).toEqual({ '200/200': TOTAL });
    expect(emu.stats()).toEqual({ accepted: TOTAL, kept: 100, dropped: TOTAL - 100 });
  } finally {
    agent.destroy();
    await emu.close();
  }
});
