// A forward proxy that fails on purpose, for the proxy tests: it reads a CONNECT request and then, as the
// test chose, hangs up without answering, answers 407, or answers 200 and hangs up at once. It records the
// request lines it saw. Listens on 127.0.0.1, port 0; closed by the test.
import { createServer, type Socket } from 'node:net';

export type ProxyFailure = 'close-before-answer' | 'answer-407' | 'close-after-200';

export interface FailingProxy {
  url: string;
  /** The first line of each request received, e.g. `CONNECT 127.0.0.1:4430 HTTP/1.1`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFailingProxy(failure: ProxyFailure): Promise<FailingProxy> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      requests.push(head.split('\r\n')[0]!);
      if (failure === 'close-before-answer') socket.destroy();
      else if (failure === 'answer-407') socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      else socket.end('HTTP/1.1 200 Connection established\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
