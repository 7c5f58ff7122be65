// A real forward proxy on loopback for the proxy tests: Debian's tinyproxy, started in the foreground on a
// free port with a generated config, its log read to see what passed through, stopped by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TinyProxy {
  url: string;
  port: number;
  /** The request lines logged so far, e.g. `CONNECT 127.0.0.1:4430 HTTP/1.1` or `POST http://... HTTP/1.1`. */
  requests(): string[];
  stop(): Promise<void>;
}

/** A port nothing listens on right now (bound and released by us). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startTinyProxy(extraConfig = ''): Promise<TinyProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-tinyproxy-'));
  const log = join(dir, 'log');
  writeFileSync(log, '');
  let child: ChildProcess | undefined;
  let port = 0;
  // Another process may take the free port between our check and tinyproxy's bind: try a few.
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freePort();
    writeFileSync(join(dir, 'conf'), `Port ${port}\nListen 127.0.0.1\nLogFile "${log}"\nLogLevel Info\nMaxClients 20\nTimeout 30\n${extraConfig}`);
    const started = spawn('tinyproxy', ['-d', '-c', join(dir, 'conf')], { stdio: 'ignore' });
    let exited = false;
    started.once('exit', () => (exited = true));
    // Bounded polling (not a timed assertion): up to ~10 s for the proxy to listen.
    for (let i = 0; i < 200 && !exited; i++) {
      if (await accepts(port)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!exited && (await accepts(port))) child = started;
    else if (!exited) started.kill();
  }
  if (!child) throw new Error('tinyproxy did not start');
  const running = child;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => [...readFileSync(log, 'utf8').matchAll(/Request \(file descriptor \d+\): (.*)$/gm)].map((m) => m[1]!),
    stop: async () => {
      if (running.exitCode === null) {
        const exited = new Promise((resolve) => running.once('exit', resolve));
        process.kill(running.pid!, 'SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
