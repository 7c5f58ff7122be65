// The emulator's HTTP server: reads each request, checks its Host, finds its route in ROUTES and writes the
// answer. The routes (routes/*.ts) are functions of the request and the state; all I/O is here.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { clip, httpError, type EmulatorAnswer } from './answers.js';
import { checkApps, DEMO_APP, EmulatorConfigError, type EmulatorApp } from './apps.js';
import { Chaos, ChaosSpecError, parseChaosSpec } from './chaos.js';
import type { Fleet } from './devices/fleet.js';
import { hostGuard } from './host-guard.js';
import { foreignOrigin } from './origin-guard.js';
import { PUSH_PATH } from './push.js';
import { RateWindow } from './rate-window.js';
import { RequestLog } from './request-log.js';
import { clearMessages, listMessages } from './routes/messages.js';
import { openEvents } from './routes/events.js';
import { health } from './routes/health.js';
import { listDevices, showDevice } from './routes/devices.js';
import { push } from './routes/push.js';
import { deleteRequest, listRequests } from './routes/requests.js';
import { estimateAudience } from './routes/audience.js';
import { setChaos, showChaos } from './routes/chaos.js';
import { isPagePath, servePage } from './routes/page.js';
import { createState, type EmulatorRequest, type EmulatorState, type Reply, type RouteCall } from './state.js';
import { MessageStore, type StoredMessage, type StoreStats } from './store.js';
import { checkTlsPair } from './tls-pair.js';

type Handler = (call: RouteCall) => Reply;

interface Route {
  path: string;
  /** Also the paths below it (`/v1/message/push/{AppID}`); the part below is the call's `rest`. */
  below?: true;
  /** Instead of `path`: the paths this test accepts (the page's files). */
  matches?: (path: string) => boolean;
  methods: Readonly<Partial<Record<string, Handler>>>;
}

const page: Handler = ({ path }) => ({ stream: (_req, res) => servePage(res, path) });

/** Every route of the emulator, first match wins. */
const ROUTES: readonly Route[] = [
  { path: PUSH_PATH, below: true, methods: { POST: push } },
  { path: '/v1/emulator/messages', methods: { GET: listMessages, DELETE: clearMessages } },
  { path: '/v1/emulator/requests', methods: { GET: listRequests } },
  { path: '/v1/emulator/requests', below: true, methods: { DELETE: deleteRequest } },
  { path: '/v1/emulator/audience', methods: { GET: estimateAudience } },
  { path: '/v1/emulator/events', methods: { GET: openEvents } },
  { path: '/v1/emulator/chaos', methods: { GET: showChaos, PUT: setChaos } },
  { path: '/v1/emulator/devices', methods: { GET: listDevices } },
  { path: '/v1/emulator/devices', below: true, methods: { GET: showDevice } },
  { path: '/v1/emulator/health', methods: { GET: health } },
  { path: '/', matches: isPagePath, methods: { GET: page } },
];

const BELOW: Record<string, string> = { [PUSH_PATH]: '/{AppID}', '/v1/emulator/devices': '/{client_id}', '/v1/emulator/requests': '/{seq}' };
const ROUTE_LIST = ROUTES.map((r) => `${Object.keys(r.methods).join('|')} ${r.path}${r.below ? BELOW[r.path] : ''}`)
  .join(', ');

/** Finds the route of a request and calls it; pure apart from the state the route updates. */
export function dispatch(request: EmulatorRequest, state: EmulatorState): Reply {
  const queryAt = request.url.indexOf('?');
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  for (const route of ROUTES) {
    const exact = route.matches ? route.matches(path) : path === route.path;
    if (!exact && !(route.below && path.startsWith(`${route.path}/`))) continue;
    const handler = route.methods[request.method];
    const allow = Object.keys(route.methods).join(', ');
    if (!handler) return httpError(405, `${request.method} is not allowed on ${clip(path)}; use ${allow}`, { allow });
    const query = new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
    return handler({ request, path, rest: exact ? '' : path.slice(route.path.length + 1), query, state });
  }
  return httpError(404, `no route for ${request.method} ${clip(path)}; the emulator serves ${ROUTE_LIST}`);
}

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
  /** Most bytes of accepted messages kept in memory, device inboxes included (they read the kept messages). Default 64 MiB. */
  keepBytes?: number;
  /** Most bytes of the request log (every push answered) kept in memory. Default 32 MiB. */
  logBytes?: number;
  /** Chaos spec, e.g. `22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms` (docs/behaviour.md#chaos). */
  chaos?: string;
  /** Seed of the chaos sequence; the same seed and requests give the same faults. Default 1. */
  chaosSeed?: number;
  /** Simulated devices (docs/behaviour.md#devices): `fleetOf(checkDevices([...]))` or `syntheticFleet(n, seed)`. */
  fleet?: Fleet;
  /** Clock in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Message ID generator. Default: `emu-` and a random UUID. */
  newMessageId?: () => string;
}

/** A running emulator. */
export interface Emulator {
  /** Base URL to give pushctl as `--base-url`, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The address it listens on: 0.0.0.0 or :: for every address of the machine, whose `url` is loopback. */
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
const TLS_HINT = 'give the server certificate and its private key, both PEM (e.g. openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj /CN=127.0.0.1)';

/** Starts the Push Message Service emulator on node:http and resolves once it is listening. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const apps = options.apps && options.apps.length > 0 ? [...options.apps] : [{ ...DEMO_APP }];
  checkApps(apps);
  const maxBodyBytes = wholeNumber(options.maxBodyBytes ?? 4 * 1024 * 1024, 'maxBodyBytes');
  const host = options.host ?? '127.0.0.1';
  if (options.tls) {
    const problem = checkTlsPair(options.tls.cert, options.tls.key);
    if (problem) throw new EmulatorConfigError(`the TLS ${problem.part === 'cert' ? 'certificate' : 'key'} ${problem.reason}`, TLS_HINT);
  }
  const chaos = new Chaos(parseChaos(options.chaos ?? ''), wholeNumber(options.chaosSeed ?? 1, 'chaosSeed'));
  const rate = new RateWindow(wholeNumber(options.rate ?? 50, 'rate'));
  const maxClientIds = wholeNumber(options.maxClientIds ?? 1000, 'maxClientIds');

  // A bound that is not a number (NaN from an unset variable) would compare false and keep everything.
  const bound = (name: 'keep' | 'keepClientIds' | 'keepBytes' | 'logBytes') => (options[name] === undefined ? undefined : wholeNumber(options[name], name));
  const bounds = { keep: bound('keep'), keepClientIds: bound('keepClientIds'), keepBytes: bound('keepBytes'), logBytes: bound('logBytes') };

  const record = options.record === undefined ? undefined : await openRecord(options.record, options.log);
  const store = new MessageStore({
    keep: bounds.keep,
    keepClientIds: bounds.keepClientIds,
    keepBytes: bounds.keepBytes,
    sink: record ? (line) => record.write(`${line}\n`) : undefined,
  });
  const state = createState({
    apps: new Map(apps.map((app) => [app.id, app])),
    store,
    rate,
    maxClientIds,
    now: options.now ?? Date.now,
    newMessageId: options.newMessageId ?? (() => `emu-${randomUUID()}`),
    log: new RequestLog({ keepBytes: bounds.logBytes }),
    chaos,
    ...(options.fleet ? { fleet: options.fleet } : {}),
  });
  const handle = requestHandler(state, host, options.tls ? 'https' : 'http', maxBodyBytes, options.log);
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handle) : createServer(handle);
  // Clients such as pushctl keep connections open between batches; keep them longer than they idle.
  server.keepAliveTimeout = 30_000;
  const port = options.port ?? 8787;
  try {
    server.listen(port, host);
    await once(server, 'listening');
  } catch (error) {
    await record?.close();
    throw listenError(error, host, port);
  }
  const address = server.address() as AddressInfo;
  // Listening on every interface still gives a loopback URL: pushctl accepts plain http only for loopback.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;

  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
    host: address.address,
    port: address.port,
    apps,
    messages: (app) => store.list(app),
    stats: (app) => store.stats(app),
    clear: (app) => store.clear(app),
    close: closer(server, state, record),
  };
}

/**
 * The server's request handler. No request, however large or malformed, may stop the process: whatever
 * throws becomes an HTTP 500. A foreign Host (DNS rebinding) or a foreign Origin on a state-changing request
 * (a cross-site page) is refused before the request is dispatched.
 */
function requestHandler(state: EmulatorState, host: string, scheme: 'http' | 'https', maxBodyBytes: number, log: EmulatorOptions['log']): (req: IncomingMessage, res: ServerResponse) => void {
  const refusedHost = hostGuard(host);
  const refusal = (req: IncomingMessage): EmulatorAnswer | undefined => {
    const name = refusedHost(req.headers.host);
    if (name !== undefined) return foreignHost(name, host);
    const origin = foreignOrigin(req.method ?? 'GET', req.headers.origin, req.headers.host, scheme);
    return origin === undefined ? undefined : foreignOriginAnswer(origin, req.method ?? 'POST', `${scheme}://${req.headers.host ?? host}`);
  };
  return (req, res) => {
    const started = performance.now();
    try {
      readRequest(req, res, maxBodyBytes, state.now(), (request) => {
        const reply = refusal(req) ?? dispatch(request, state);
        if ('stream' in reply) reply.stream(req, res);
        else answer(req, res, reply, request.receivedAt!, started, log);
      });
    } catch (error) {
      answerFailure(res, error);
    }
  };
}

/** Closes once however often called: stops accepting, lets requests in flight finish, flushes the record file. */
function closer(server: Server, state: EmulatorState, record: { close(): Promise<void> } | undefined): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      state.log.close();
      server.closeIdleConnections();
      // Requests in flight get a moment to finish; a client that holds a connection open does not block exit.
      const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(timer);
      await record?.close();
    })());
}

/** Reads the body (up to `maxBodyBytes`; past it the rest is read and discarded) and hands over the request. */
function readRequest(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, receivedAt: number, then: (request: EmulatorRequest) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Discarding the rest keeps the connection usable for the next request.
    if (size <= maxBodyBytes) chunks.push(chunk);
    else chunks.length = 0;
  });
  req.on('error', () => res.destroy());
  req.on('end', () =>
    guard(res, () =>
      then({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        bodyText: size > maxBodyBytes ? '' : Buffer.concat(chunks, size).toString('utf8'),
        ...(size > maxBodyBytes ? { bodyTooLarge: { limit: maxBodyBytes } } : {}),
        receivedAt,
      }),
    ),
  );
}

function foreignHost(name: string, bound: string): EmulatorAnswer {
  return httpError(
    403,
    `Host "${clip(name)}" is not a loopback name: this emulator listens on ${bound} and answers only requests addressed to localhost, 127.0.0.1 or [::1], so a web page cannot reach it through DNS rebinding; use http://127.0.0.1:<port>/, or start it with --host ${clip(name)} to allow that name`,
  );
}

function foreignOriginAnswer(origin: string, method: string, own: string): EmulatorAnswer {
  return httpError(
    403,
    `Origin "${clip(origin)}" is not this emulator's (${clip(own)}): a ${method} from another web page is refused, so a site you visit cannot fill or clear the inbox; send from pushctl or curl (no Origin), or from the inbox page at ${clip(own)}/`,
  );
}

/** Writes an answer (after a chaos delay, or not at all for a chaos cut) and logs one line. */
function answer(req: IncomingMessage, res: ServerResponse, reply: EmulatorAnswer, receivedAt: number, started: number, log: ((line: string) => void) | undefined): void {
  const respond = () => {
    if (reply.cut === 'reset') res.destroy();
    else if (reply.cut !== 'hang') writeAnswer(res, reply);
    if (log) {
      const ms = (performance.now() - started).toFixed(1);
      const http = reply.cut || reply.httpStatus === 200 ? '' : ` [HTTP ${reply.httpStatus}]`;
      log(`${new Date(receivedAt).toISOString()} ${req.method} ${clip(req.url ?? '/', 200)} -> ${clip(reply.note, 300)}${http} ${ms}ms`);
    }
  };
  // Unref'd: a delayed answer must not keep a stopping emulator alive (its server holds the loop until then).
  if (reply.delayMs) setTimeout(() => guard(res, respond), reply.delayMs).unref();
  else respond();
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

function parseChaos(spec: string) {
  try {
    return parseChaosSpec(spec);
  } catch (error) {
    if (error instanceof ChaosSpecError) throw new EmulatorConfigError(`--chaos: ${error.message}`, 'e.g. --chaos 22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms');
    throw error;
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

/** Why the server could not listen, as the caller's to fix (a port in use, a host that is not this machine's). */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_SOCKET_BAD_PORT') return new EmulatorConfigError(`cannot listen on port ${port}: a port is a whole number from 0 to 65535`, 'use --port 0 for any free port, or e.g. 8787');
  if (code === 'EADDRINUSE') return new EmulatorConfigError(`cannot listen on ${host}:${port} (${code})`, 'another process uses that port: pick another with --port, or --port 0 for any free one');
  if (code === 'EACCES') return new EmulatorConfigError(`cannot listen on ${host}:${port} (${code})`, 'ports below 1024 need privileges: use a port such as 8787');
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new EmulatorConfigError(`cannot listen on ${host}:${port} (${code})`, 'check --host: use 127.0.0.1, ::1 or 0.0.0.0');
  return error;
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new EmulatorConfigError(`${name} must be a whole number of 0 or more, got ${value}`, `fix the ${name} option`);
  }
  return value;
}
