import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does with one request. */
export type Step =
  | { status?: number; headers?: Record<string, string>; body?: string | object; delayMs?: number }
  /** Destroy the connection once the request has been read. */
  | { action: 'reset' }
  /** Never answer (until the server closes). */
  | { action: 'hang' }
  /** Send the status line and headers, then dribble nothing more. */
  | { action: 'stall-body'; status?: number };

export interface RecordedRequest {
  index: number;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request line arrived: the same clock as the client in this process. */
  at: number;
}

export interface ScriptedServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (to check keep-alive). */
  connections(): number;
  /**
   * Resolves once every connection accepted so far has closed. After a client is killed, the requests it
   * had written may still be arriving; once its connections are closed, each has been recorded or never will be.
   */
  quiet(): Promise<void>;
  close(): Promise<void>;
}

export const ok = (messageId = 'msg-1'): Step => ({ status: 200, body: { status: 200, message: 'OK', result: { message_id: messageId } } });

/**
 * A node:http server on 127.0.0.1, port 0, answering each request from a script: an array (the last step
 * repeats) or a function of the recorded request. It records every request for assertions.
 */
export async function startScriptedServer(script: Step[] | ((request: RecordedRequest) => Step)): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(recorded);
      const step = typeof script === 'function' ? script(recorded) : (script[recorded.index] ?? script.at(-1) ?? ok());
      play(step, req, res);
    });
  });
  let connections = 0;
  const open = new Set<Socket>();
  const onQuiet: (() => void)[] = [];
  server.on('connection', (socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      if (open.size === 0) for (const resolve of onQuiet.splice(0)) resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    connections: () => connections,
    quiet: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => onQuiet.push(resolve))),
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function play(step: Step, req: http.IncomingMessage, res: http.ServerResponse): void {
  if ('action' in step) {
    if (step.action === 'reset') req.socket.destroy();
    if (step.action === 'stall-body') {
      res.writeHead(step.status ?? 200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"status":');
    }
    return;
  }
  const answer = () => {
    const body = typeof step.body === 'string' ? step.body : step.body === undefined ? '' : JSON.stringify(step.body);
    const type = typeof step.body === 'object' ? { 'Content-Type': 'application/json' } : {};
    res.writeHead(step.status ?? 200, { ...type, ...step.headers });
    res.end(body);
  };
  if (step.delayMs) setTimeout(answer, step.delayMs);
  else answer();
}

/** A port on 127.0.0.1 that was just bound and released, so connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
