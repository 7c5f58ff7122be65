// The client against servers that misbehave at the socket level (issue 11, "Answers").
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PushClient } from '../../../src/client/push-client.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A TCP server on 127.0.0.1 that reads `readBytes` of the request, writes `before` (the start of an answer,
 * perhaps), and then resets the connection (RST).
 */
async function resetMidUpload(readBytes: number, before = ''): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let seen = 0;
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      received += chunk.length;
      if (seen < readBytes || socket.destroyed) return;
      if (before === '') socket.resetAndDestroy();
      else socket.write(before, () => setImmediate(() => socket.resetAndDestroy()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

// 32 MiB of client IDs: far more than the socket buffers hold, so the reset arrives mid-upload.
const large = { type: 2, time_to_live: 60, condition: { type: 2, client_ids: Array.from({ length: 1000 }, (_, i) => `${i}-${'x'.repeat(32 * 1024)}`) }, data: { a: 'b' } };

describe('a connection that fails before the request body was written', () => {
  it.each([
    ['a bare reset', ''],
    ['a reset after the start of an answer', 'HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sta'],
  ])('is not processed (retryable), not unknown: %s', async (_what, before) => {
    const server = await resetMidUpload(64 * 1024, before);
    const client = new PushClient({ baseUrl: server.url, appId: 'a', appSecret: 's', userAgent: 'pushctl/test' });
    cleanups.push(() => client.close());
    const outcome = await client.send(large);
    expect(outcome).toMatchObject({ kind: 'retryable' });
    expect(server.received()).toBeLessThan(32 * 1024 * 1024);
  });
});
