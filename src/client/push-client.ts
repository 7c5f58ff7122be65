import http from 'node:http';
import type https from 'node:https';
import { configError } from '../errors.js';
import { MAX_TIMER_MS } from '../message/duration.js';
import type { PushMessage } from '../message/types.js';
import { classifyNetworkError, classifyResponse } from './classify.js';
import type { AttemptOutcome, RequestView, ResponseView } from './outcome.js';


const BASE_URL_EXAMPLE = 'use e.g. https://pushapi.twibida.com';

export interface PushClientOptions {
  /** `https://pushapi.twibida.com`, or the emulator's URL; a path prefix is kept. */
  baseUrl: string;
  /** Where the base URL was set ("flag --base-url", "env PUSHCTL_BASE_URL"): a reason that says to fix it names that. */
  baseUrlSource?: string;
  appId: string;
  appSecret: string;
  /** Deadline for the whole attempt: connect, send, wait, read. */
  timeoutMs?: number;
  /** `pushctl/<version>`. */
  userAgent: string;
  /** Answers longer than this are cut and classified as unreadable; the service's own answers are tiny. */
  maxResponseBytes?: number;
  /** The connection agent, e.g. a proxy's (client/proxy-agent.ts); default a keep-alive agent of our own. */
  agent?: http.Agent;
}

interface Connection {
  transport: typeof http | typeof https;
  agent: http.Agent;
}

/** Anything that can make one attempt; sendBatches takes this so tests can script outcomes. */
export interface PushSender {
  send(body: PushMessage | object, options?: SendOptions): Promise<AttemptOutcome>;
}

export interface SendOptions {
  signal?: AbortSignal;
  /**
   * Called once the whole request has been handed to the connection: after a new connection's TCP and TLS
   * handshakes, which can take long enough to change which of the service's rate windows it lands in.
   */
  onWritten?: () => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Body buffers kept for reuse: about as many as requests are usually in flight. */
const SPARE_BODIES = 16;
// Idle keep-alive sockets are dropped before the common 5 s server keep-alive timeout, so a request is
// rarely written onto a socket the server is closing (which would make its outcome in doubt).
const IDLE_SOCKET_MS = 4_000;

/**
 * The one place pushctl talks to the Push Message Service. Each `send` is exactly one attempt; retrying is
 * the caller's decision (see retry.ts), because only the caller knows whether a duplicate is acceptable.
 * Redirects are never followed and TLS verification is never relaxed.
 */
export class PushClient implements PushSender {
  readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Record<string, string>;
  /** The transport and agent, chosen at the first send (see connection()). */
  private connecting: Promise<Connection> | undefined;
  private agent: http.Agent | undefined;
  /** Buffers of earlier bodies, free again once their request was handed to the OS (see bodyBytes). */
  private readonly spareBodies: Buffer[] = [];

  constructor(private readonly options: PushClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw configError(`the base URL "${options.baseUrl}" is not a valid URL`, BASE_URL_EXAMPLE);
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw configError(`the base URL must use http or https, not ${base.protocol}`, BASE_URL_EXAMPLE);
    }
    // Node would throw on these when setting the header; saying which setting is wrong is kinder.
    if (!/^[\t\x20-\x7e\x80-\xff]+$/.test(options.appSecret)) {
      throw configError('the app secret is empty or contains characters that cannot go in an HTTP header (a newline?)', 'copy the secret again from the vendor console, as one line of plain text');
    }
    this.url = new URL(base.pathname.replace(/\/+$/, '') + '/v1/message/push/' + encodeURIComponent(options.appId), base);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // setTimeout turns a delay it cannot hold into 1 ms: every attempt would time out at once, after sending.
    if (!(this.timeoutMs >= 1 && this.timeoutMs <= MAX_TIMER_MS)) throw new RangeError(`timeoutMs must be 1 to ${MAX_TIMER_MS}, got ${this.timeoutMs}`);
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.headers = {
      Authorization: options.appSecret,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'User-Agent': options.userAgent,
    };
  }

  /** The request `send(body)` would make, secret shown as `***`, for `--verbose`. */
  describeRequest(body: PushMessage | object): RequestView {
    const text = JSON.stringify(body);
    return {
      method: 'POST',
      url: this.url.href,
      headers: { ...this.headers, Authorization: '***', 'Content-Length': String(Buffer.byteLength(text)) },
      body: text,
    };
  }

  /**
   * Make exactly one attempt and classify it; never rejects for network or protocol trouble. If `signal`
   * aborts before the request is fully sent, the promise rejects with the abort reason (nothing was
   * delivered); after that, the attempt is reported as in doubt.
   */
  async send(body: PushMessage | object, options: SendOptions = {}): Promise<AttemptOutcome> {
    options.signal?.throwIfAborted();
    const connection = await this.connection();
    options.signal?.throwIfAborted();
    return this.request(connection, this.bodyBytes(body), options.signal, options.onWritten);
  }

  /**
   * The body as UTF-8 bytes in a reused buffer. Not the JSON string: node:http would join a string body to
   * the header text (a second copy on the heap), and the string stayed reachable until the answer came; a
   * request's body is tens of kilobytes, and with many in flight those copies outlived the garbage
   * collector's young generation and grew the heap of a million-ID send. Not a new Buffer each time either:
   * freed only when collected, a thousand of them left the C heap fragmented and tens of megabytes larger.
   */
  private bodyBytes(body: PushMessage | object): { bytes: Buffer; release: () => void } {
    const text = JSON.stringify(body);
    const size = Buffer.byteLength(text, 'utf8');
    let buffer = this.spareBodies.pop();
    if (buffer === undefined || buffer.length < size) buffer = Buffer.allocUnsafeSlow(Math.max(size, buffer?.length ?? 0));
    buffer.write(text, 0, 'utf8');
    const owned = buffer;
    return {
      bytes: buffer.subarray(0, size),
      release: () => {
        if (this.spareBodies.length < SPARE_BODIES) this.spareBodies.push(owned);
      },
    };
  }

  /** Close idle keep-alive sockets so the process can exit. */
  close(): void {
    this.agent?.destroy();
  }

  /**
   * node:https pulls in TLS, a few milliseconds of start-up that a run against the emulator never needs, so
   * it loads at the first send to an https URL; asynchronously, because a synchronous require from an ES
   * module (node:module's createRequire) would start Node's ES module loader in the CommonJS CLI.
   */
  private connection(): Promise<Connection> {
    this.connecting ??= (async () => {
      const transport = this.url.protocol === 'https:' ? await import('node:https') : http;
      this.agent = this.options.agent ?? new transport.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
      return { transport, agent: this.agent };
    })();
    return this.connecting;
  }

  /** The only I/O in the client. */
  private request({ transport, agent }: Connection, { bytes: payload, release }: { bytes: Buffer; release: () => void }, signal: AbortSignal | undefined, onWritten?: () => void): Promise<AttemptOutcome> {
    return new Promise<AttemptOutcome>((resolve, reject) => {
      let connected = false;
      let written = false;
      let settled = false;
      let response: { httpStatus: number; headers: Record<string, string>; chunks: Buffer[]; size: number } | undefined;

      const req = transport.request(this.url, {
        method: 'POST',
        agent,
        headers: { ...this.headers, 'Content-Length': payload.length },
      });

      const finish = (outcome: AttemptOutcome | { abort: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if ('abort' in outcome) reject(outcome.abort);
        else resolve(outcome);
      };
      const responseView = (incomplete: boolean): ResponseView | undefined =>
        response && {
          httpStatus: response.httpStatus,
          headers: response.headers,
          body: Buffer.concat(response.chunks).toString('utf8'),
          incomplete,
        };
      const fail = (errorCode: string, message?: string, proxyStatus?: number) => {
        // Headers arrived but the body did not: the status line may still say "retry" (503) or not. Unless
        // the request itself was cut short: a service never processes half a JSON body, whatever it began
        // to answer.
        const partial = written ? responseView(true) : undefined;
        if (partial) finish(classifyResponse(partial));
        else finish(classifyNetworkError({ errorCode, requestWritten: written, connected, message, ...(proxyStatus !== undefined ? { proxyStatus } : {}), ...(this.options.agent ? {} : { target: this.url, targetSource: this.options.baseUrlSource }) }));
      };

      const timer = setTimeout(() => {
        fail('TIMEOUT');
        req.destroy();
      }, this.timeoutMs);
      const onAbort = () => {
        if (!written) finish({ abort: signal?.reason });
        else finish({ kind: 'in_doubt', reason: 'interrupted after the request was sent', errorCode: 'ABORTED' });
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      req.on('finish', () => {
        written = true;
        // Every byte of the body is with the OS now: its buffer may carry the next request. (A request that
        // fails before this leaves its buffer to the garbage collector: the socket may still hold it.)
        release();
        onWritten?.();
      });
      // A proxy that refused the tunnel says with what status (client/proxy-tunnel-error.ts).
      req.on('error', (error: NodeJS.ErrnoException & { proxyStatus?: number }) => fail(error.code ?? 'ERROR', error.message, error.proxyStatus));
      req.on('response', (res) => {
        response = { httpStatus: res.statusCode ?? 0, headers: flattenHeaders(res.headers), chunks: [], size: 0 };
        const current = response;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          current.size += chunk.length;
          if (current.size <= this.maxResponseBytes) {
            current.chunks.push(chunk);
            return;
          }
          // Too big to be the service's answer: stop reading and classify what we have.
          current.chunks.push(chunk.subarray(0, chunk.length - (current.size - this.maxResponseBytes)));
          finish(classifyResponse(responseView(true)!));
          res.destroy();
        });
        res.on('end', () => finish(classifyResponse(responseView(false)!)));
        res.on('aborted', () => fail('ECONNRESET'));
        res.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'ERROR', error.message));
      });
      req.end(payload);
    });
  }
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
