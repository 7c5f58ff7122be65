import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { httpError, type EmulatorAnswer } from './answers.js';
import { checkUniqueApps, DEMO_APP, EmulatorConfigError, type EmulatorApp } from './apps.js';
import { Chaos, ChaosSpecError, parseChaosSpec, PROCESSED_BEFORE_FAULT, type ChaosDecision } from './chaos.js';
import { EVENTS_PATH, handleRequest, PUSH_PATH, type HandlerState } from './handler.js';
import { logEntryFor } from './log-entry.js';
import { RequestLog } from './request-log.js';
import { openEventStream } from './routes/events.js';
import { isPagePath, servePage } from './routes/page.js';
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
  /** Most bytes of accepted messages kept in memory (their JSON size). Default 64 MiB. */
  keepBytes?: number;
  /** Most bytes of the request log (every push answered) kept in memory. Default 32 MiB. */
  logBytes?: number;
  /** Chaos spec, e.g. `22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms` (SPEC section 6). */
  chaos?: string;
  /** Seed of the chaos sequence; the same seed and requests give the same faults. Default 1. */
  chaosSeed?: number;
  /** Simulated devices (SPEC section 9). */
  fleet?: HandlerState['fleet'];
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
  let chaos: Chaos;
  try {
    chaos = new Chaos(parseChaosSpec(options.chaos ?? ''), wholeNumber(options.chaosSeed ?? 1, 'chaosSeed'));
  } catch (error) {
    if (error instanceof ChaosSpecError) throw new EmulatorConfigError(`--chaos: ${error.message}`, 'e.g. --chaos 22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms');
    throw error;
  }
  const store = new MessageStore({
    keep: options.keep,
    keepClientIds: options.keepClientIds,
    keepBytes: options.keepBytes,
    sink: record ? (line) => record.write(`${line}\n`) : undefined,
  });
  const state: HandlerState = {
    apps: new Map(apps.map((app) => [app.id, app])),
    store,
    rate: new RateWindow(rate),
    maxClientIds,
    now,
    newMessageId: options.newMessageId ?? (() => `emu-${randomUUID()}`),
    log: new RequestLog({ keepBytes: options.logBytes }),
    chaos,
    ...(options.fleet ? { fleet: options.fleet } : {}),
  };

  // No request, however large or malformed, may stop the process: whatever throws becomes an HTTP 500.
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    try {
      serveRequest(req, res, state, maxBodyBytes, log);
    } catch (error) {
      answerFailure(res, error);
    }
  };
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
        state.log?.close();
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
    try {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === EVENTS_PATH && req.method === 'GET' && state.log) {
        openEventStream(req, res, state.log);
        return;
      }
      if (req.method === 'GET' && isPagePath(path)) {
        servePage(res, path);
        return;
      }
      const request = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        bodyText: size > maxBodyBytes ? '' : Buffer.concat(chunks, size).toString('utf8'),
        bodyTooLarge: size > maxBodyBytes ? { limit: maxBodyBytes } : undefined,
        receivedAt,
      };
      const isPush = request.method === 'POST' && (path === PUSH_PATH || path.startsWith(`${PUSH_PATH}/`));
      const decision: ChaosDecision = isPush && state.chaos ? state.chaos.decide() : { latencyMs: 0 };
      const fault = decision.fault;
      // A fault "before processing" answers without the handler: nothing is stored, nothing delivered.
      let answer: EmulatorAnswer = fault && !PROCESSED_BEFORE_FAULT[fault] ? { ...chaosAnswer(fault), push: { app_id: appIdOf(path) } } : handleRequest(request, state);
      if (fault && PROCESSED_BEFORE_FAULT[fault]) answer = { ...chaosAnswer(fault), push: answer.push ?? { app_id: appIdOf(path) } };
      if (isPush && state.log) state.log.add(logEntryFor(answer, decision, receivedAt, request.bodyText), size + 512);
      const respond = () => {
        if (fault === 'reset') res.destroy();
        else if (fault !== 'hang') writeAnswer(res, answer);
        if (log) {
          const ms = (performance.now() - started).toFixed(1);
          const http = fault === 'reset' || fault === 'hang' ? '' : answer.httpStatus === 200 ? '' : ` [HTTP ${answer.httpStatus}]`;
          log(`${new Date(receivedAt).toISOString()} ${req.method} ${clip(req.url ?? '/', 200)} -> ${clip(answer.note, 300)}${http} ${ms}ms`);
        }
      };
      // A hung request is never answered: the client's timeout decides, and closing the emulator ends it.
      // Unref'd: a delayed answer must not keep a stopping emulator alive (its server holds the loop until then).
      if (decision.latencyMs > 0) setTimeout(() => guard(res, respond), decision.latencyMs).unref();
      else respond();
    } catch (error) {
      answerFailure(res, error);
    }
  });
}

/** The answer of a chaos fault; `note` marks it in the log line. */
function chaosAnswer(fault: NonNullable<ChaosDecision['fault']>): EmulatorAnswer {
  switch (fault) {
    case '22001':
      return { httpStatus: 200, headers: { 'retry-after': '1' }, json: { status: 22001, message: 'Called too frequently (chaos)' }, note: 'chaos 22001 (not processed)' };
    case '503':
      // A gateway's answer, not the service's: JSON whose status is no service code.
      return { httpStatus: 503, headers: { 'retry-after': '1' }, json: { status: 503, error: 'Service Unavailable' }, note: 'chaos 503 (not processed)' };
    case '500':
      return { httpStatus: 500, headers: {}, json: { status: 500, error: 'Internal Server Error' }, note: 'chaos 500 (processed: delivered)' };
    case 'reset':
      return { httpStatus: 0, headers: {}, json: null, note: 'chaos reset (processed: delivered; connection destroyed)' };
    case 'hang':
      return { httpStatus: 0, headers: {}, json: null, note: 'chaos hang (not processed; no answer)' };
  }
}

function appIdOf(path: string): string {
  const raw = path.slice(PUSH_PATH.length + 1);
  try {
    return clip(decodeURIComponent(raw), 100);
  } catch {
    return clip(raw, 100);
  }
}

function writeAnswer(res: ServerResponse, answer: EmulatorAnswer): void {
  const text = JSON.stringify(answer.json);
  res.writeHead(answer.httpStatus, {
    ...answer.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function guard(res: ServerResponse, action: () => void): void {
  try {
    action();
  } catch (error) {
    answerFailure(res, error);
  }
}

/** A route failed: answer HTTP 500 if the answer has not started, else cut the connection. Never throws. */
function answerFailure(res: ServerResponse, error: unknown): void {
  try {
    if (res.headersSent) res.destroy();
    else writeAnswer(res, httpError(500, `emulator internal error: ${clip(error instanceof Error ? error.message : String(error), 300)}`));
  } catch {
    res.destroy();
  }
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
