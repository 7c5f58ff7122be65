import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { httpError, type EmulatorAnswer } from './answers.js';
import { checkUniqueApps, DEMO_APP, EmulatorConfigError, type EmulatorApp } from './apps.js';
import { handleRequest, type HandlerState } from './handler.js';
import { RateWindow } from './rate-window.js';
import { MessageStore, type StoredMessage, type StoreStats } from './store.js';

/** Options of {@link createEmulator}; every one has a default. */
export interface EmulatorOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; 0 picks a free one (tests). Default 8787. */
  port?: number;
  /** Known apps. Default: one app `demo-app` with secret `demo-secret`. */
  apps?: readonly EmulatorApp[];
  /** Requests per second per app (sliding one-second window) before 22001; 0 = no limit. Default 50. */
  rate?: number;
  /** Most client IDs in one request before 21006; 0 = no limit. Default 1000. */
  maxClientIds?: number;
  /** Append every accepted message to this JSON Lines file. */
  record?: string;
  /** PEM certificate (chain) and key: serve https instead of http. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Receives one line per request (no trailing newline). Default: no logging. */
  log?: (line: string) => void;
  /** Largest request body read; larger bodies are answered 21005. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Most accepted messages kept in memory (oldest dropped first). Default 10,000. */
  keep?: number;
  /** Most client IDs kept in memory over all kept messages. Default 100,000. */
  keepClientIds?: number;
  /** Clock in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Message ID generator. Default: `emu-` and a random UUID. */
  newMessageId?: () => string;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL to give pushctl as `--base-url`, e.g. `http://127.0.0.1:8787`. */
  url: string;
  host: string;
  port: number;
  apps: readonly EmulatorApp[];
  /** Accepted messages still in memory, oldest first, optionally of one app. */
  messages(app?: string): StoredMessage[];
  stats(app?: string): StoreStats;
  /** Forgets the accepted messages (of one app, or all). */
  clear(app?: string): number;
  /** Stops accepting connections, lets requests in flight finish, and flushes the record file. */
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 2000;

/** Starts the Push Message Service emulator on node:http and resolves once it is listening. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const apps = options.apps && options.apps.length > 0 ? [...options.apps] : [{ ...DEMO_APP }];
  checkUniqueApps(apps);
  const rate = wholeNumber(options.rate ?? 50, 'rate');
  const maxClientIds = wholeNumber(options.maxClientIds ?? 1000, 'maxClientIds');
  const maxBodyBytes = wholeNumber(options.maxBodyBytes ?? 4 * 1024 * 1024, 'maxBodyBytes');
  const log = options.log;
  const now = options.now ?? Date.now;

  const record = options.record === undefined ? undefined : await openRecord(options.record, log);
  const store = new MessageStore({
    keep: options.keep,
    keepClientIds: options.keepClientIds,
    sink: record ? (line) => record.write(`${line}\n`) : undefined,
  });
  const state: HandlerState = {
    apps: new Map(apps.map((app) => [app.id, app])),
    store,
    rate: new RateWindow(rate),
    maxClientIds,
    now,
    newMessageId: options.newMessageId ?? (() => `emu-${randomUUID()}`),
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => serveRequest(req, res, state, maxBodyBytes, log);
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handle) : createServer(handle);
  // Clients such as pushctl keep connections open between batches; keep them longer than they idle.
  server.keepAliveTimeout = 30_000;
  server.listen(options.port ?? 8787, options.host ?? '127.0.0.1');
  try {
    await once(server, 'listening');
  } catch (error) {
    await record?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  // Listening on every interface still gives a loopback URL: pushctl accepts plain http only for loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;

  let closing: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    apps,
    messages: (app) => store.list(app),
    stats: (app) => store.stats(app),
    clear: (app) => store.clear(app),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; a client that holds a connection open does not block exit.
        const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await closed;
        clearTimeout(timer);
        await record?.close();
      })()),
  };
}

function serveRequest(
  req: IncomingMessage,
  res: ServerResponse,
  state: HandlerState,
  maxBodyBytes: number,
  log: ((line: string) => void) | undefined,
): void {
  const started = performance.now();
  const receivedAt = state.now();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Past the limit the rest is read and discarded, so the connection stays usable for the next request.
    if (size <= maxBodyBytes) chunks.push(chunk);
    else chunks.length = 0;
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    let answer: EmulatorAnswer;
    try {
      answer = handleRequest(
        {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          bodyText: size > maxBodyBytes ? '' : Buffer.concat(chunks, size).toString('utf8'),
          bodyTooLarge: size > maxBodyBytes ? { limit: maxBodyBytes } : undefined,
          receivedAt,
        },
        state,
      );
    } catch (error) {
      answer = httpError(500, `emulator internal error: ${(error as Error).message}`);
    }
    const text = JSON.stringify(answer.json);
    res.writeHead(answer.httpStatus, {
      ...answer.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
    if (log) {
      const ms = (performance.now() - started).toFixed(1);
      const http = answer.httpStatus === 200 ? '' : ` [HTTP ${answer.httpStatus}]`;
      log(`${new Date(receivedAt).toISOString()} ${req.method} ${clip(req.url ?? '/', 200)} -> ${clip(answer.note, 300)}${http} ${ms}ms`);
    }
  });
}

/** Opens the record file for appending now, so that a bad path fails at start rather than at the first message. */
async function openRecord(path: string, log: ((line: string) => void) | undefined) {
  let handle;
  try {
    handle = await open(path, 'a');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    throw new EmulatorConfigError(`cannot open record file ${path} (${code})`, 'give --record a path in a writable directory');
  }
  const stream = handle.createWriteStream();
  let failed = false;
  stream.on('error', (error) => {
    if (!failed) log?.(`record file ${path}: ${error.message}; no further messages are recorded`);
    failed = true;
  });
  return {
    write: (line: string) => {
      if (!failed) stream.write(line);
    },
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new EmulatorConfigError(`${name} must be a whole number of 0 or more, got ${value}`, `fix the ${name} option`);
  }
  return value;
}
