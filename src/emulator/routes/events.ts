// `GET /v1/emulator/events`: Server-Sent Events, one `request` event per push request answered and a
// `cleared` event after a clear, so the inbox page (or `curl -N`) sees new pushes without polling.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestLog } from '../request-log.js';

const PING_MS = 15_000;

export function openEventStream(req: IncomingMessage, res: ServerResponse, log: RequestLog): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  const unsubscribe = log.subscribe((event) => {
    if (event.type === 'closed') res.end();
    else res.write(event.type === 'request' ? `event: request\nid: ${event.entry.seq}\ndata: ${JSON.stringify(event.entry)}\n\n` : 'event: cleared\ndata: {}\n\n');
  });
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  ping.unref();
  const close = () => {
    clearInterval(ping);
    unsubscribe();
  };
  req.socket.on('close', close);
  res.on('close', close);
}
