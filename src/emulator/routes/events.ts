// `GET /v1/emulator/events`: Server-Sent Events, one `request` event per push request answered, a `cleared`
// event after a clear and a `skipped` event after entries a slow reader missed (event-fanout.ts), so the
// inbox page (or `curl -N`) sees new pushes without polling.
import type { RouteCall, StreamReply } from '../state.js';

const PING_MS = 15_000;

export function openEvents({ state }: RouteCall): StreamReply {
  return {
    stream: (req, res) => {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      const remove = state.events.add(res);
      // A ping only to a reader that is keeping up: one that is behind has bytes waiting already.
      const ping = setInterval(() => res.writableLength === 0 && res.write(': ping\n\n'), PING_MS);
      ping.unref();
      const close = () => {
        clearInterval(ping);
        remove();
      };
      req.socket.on('close', close);
      res.on('close', close);
    },
  };
}
