import { describeStatus, STATUS_OK, STATUS_RATE_LIMITED } from './codes.js';
import { isLoopbackHost } from './loopback.js';
import type { AttemptOutcome, ResponseView, Retryable } from './outcome.js';
import { PROXY_TUNNEL_ERROR } from './proxy-tunnel-error.js';
import { scanJson } from '../message/parse-json.js';
import { messageIdFault, unparsedIdFault } from './answer-faults.js';

const withCause = (cause: string | undefined) => (cause === undefined ? '' : `: ${cause}`);

/** HTTP statuses that say "not processed, try again later" (docs/behaviour.md#retries). */
const RETRYABLE_HTTP = new Set([408, 429, 503]);

/** Network error codes that mean the request never reached a service that could process it. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL',
]);

/**
 * Classify an HTTP answer. The body's `status` decides whatever the HTTP status (the vendor does not document
 * HTTP statuses), so an HTTP 400 carrying status 21004 is a rejection, and only when the body says nothing
 * usable does the HTTP status matter.
 */
export function classifyResponse(response: ResponseView, nowMs: number = Date.now()): AttemptOutcome {
  const { httpStatus } = response;
  const parsed = response.incomplete ? undefined : parseServiceBody(response.body);
  if (parsed) {
    if (parsed.status === STATUS_OK) {
      if (parsed.messageId !== undefined) return { kind: 'accepted', messageId: parsed.messageId, httpStatus, response };
      return { kind: 'in_doubt', reason: `status 200 ${parsed.idFault !== undefined ? `with ${parsed.idFault}` : 'without a message_id'}`, httpStatus, response };
    }
    if (parsed.messageId !== undefined) {
      // A refusal that names the message it made (a partial success: some client IDs illegal, the others sent)
      // is no plain no: the service may have delivered to some of the batch, so neither retried nor rejected.
      const { meaning } = describeStatus(parsed.status);
      const own = parsed.message !== '' && parsed.message !== meaning ? ` (service: ${JSON.stringify(parsed.message)})` : '';
      return { kind: 'in_doubt', reason: `${parsed.status} ${meaning}${own} with message_id ${parsed.messageId}: the service made a message and may have delivered it to some`, httpStatus, response };
    }
    if (parsed.status === STATUS_RATE_LIMITED) {
      return withRetryAfter(
        { kind: 'retryable', reason: 'rate limited (status 22001)', code: parsed.status, message: parsed.message, httpStatus, response },
        response,
        nowMs,
      );
    }
    return { kind: 'rejected', code: parsed.status, message: parsed.message, httpStatus, response };
  }

  if (RETRYABLE_HTTP.has(httpStatus)) {
    return withRetryAfter({ kind: 'retryable', reason: `HTTP ${httpStatus}`, httpStatus, response }, response, nowMs);
  }
  if (httpStatus >= 300 && httpStatus < 400) {
    // Following a redirect could carry the secret to another host or down to plain http, so it is refused.
    // The service did not answer the push, but we cannot prove nothing happened: report it as unknown.
    const location = response.headers['location'];
    return {
      kind: 'in_doubt',
      reason: `HTTP ${httpStatus} redirect${location ? ` to ${location}` : ''} refused; check the base URL`,
      httpStatus,
      redirectTo: location ?? '',
      response,
    };
  }
  if (httpStatus >= 400 && httpStatus < 500 && !response.incomplete) {
    // A client error from something that does not speak the service's JSON (a wrong base URL, a proxy)
    // refused the request before any push was processed: nothing was delivered, and sending the same
    // request again would be refused the same way.
    return {
      kind: 'retryable',
      reason: `HTTP ${httpStatus} with an answer that is not the service's JSON; check the base URL or region`,
      httpStatus,
      permanent: true,
      response,
    };
  }
  const what = response.incomplete
    ? 'an incomplete answer'
    : response.body.trim() === ''
      ? 'an empty answer'
      : `an answer that is not the documented JSON${withCause(unparsedIdFault(response.body))}`;
  return { kind: 'in_doubt', reason: `HTTP ${httpStatus} with ${what}`, httpStatus, response };
}

/** Where an attempt failed without a usable answer. */
export interface NetworkFailure {
  /** The error's `code` (ECONNREFUSED, ECONNRESET...) or 'TIMEOUT' for our own deadline. */
  errorCode: string;
  /** Whether the whole request had been handed to the operating system before the failure. */
  requestWritten: boolean;
  /** Whether a TCP connection had been established (distinguishes a connect timeout). */
  connected: boolean;
  /** The service's URL when pushctl connects to it directly (not through a proxy), so a reason can name it. */
  target?: URL;
  /** Where the target's URL was set ("config x (profile eu)"), for the reason's way out; the flag's name if not known. */
  targetSource?: string | undefined;
  message?: string;
  /** A proxy's HTTP status for a CONNECT it refused (with errorCode PROXY_TUNNEL_ERROR). */
  proxyStatus?: number;
}

/** Classify a failure that produced no HTTP answer. */
export function classifyNetworkError(failure: NetworkFailure): AttemptOutcome {
  const { errorCode, requestWritten, connected } = failure;
  const target = failure.target;
  // The setting to fix is the one that chose the URL: a profile's or the environment's, not always the flag.
  const baseUrl = `the base URL (${failure.targetSource ?? 'flag --base-url'})`;
  if (errorCode === PROXY_TUNNEL_ERROR) return classifyTunnelFailure(failure);
  if (errorCode === 'ENOTFOUND' && target) {
    // A name that does not resolve will not resolve a second later: no retries, and say which name.
    return { kind: 'retryable', reason: `DNS lookup of ${target.hostname} failed (ENOTFOUND): no such host`, fix: `check ${baseUrl}, or use --region global|india for the vendor's hosts`, errorCode, permanent: true };
  }
  if (NOT_CONNECTED_CODES.has(errorCode)) {
    const reason = errorCode === 'ENOTFOUND' || errorCode === 'EAI_AGAIN' ? 'DNS lookup failed' : 'could not connect';
    if (errorCode === 'ECONNREFUSED' && target) {
      if (isLoopbackHost(target.hostname)) {
        // Nothing listens on this machine's port, and retrying for seconds will not start anything there. A
        // remote refusal may be a server restarting behind its address, and keeps its retries.
        return { kind: 'retryable', reason: `could not connect to ${target.origin} (ECONNREFUSED): nothing listens there`, fix: `start the local emulator with \`pushctl serve\`, or fix ${baseUrl}`, errorCode, permanent: true };
      }
      return { kind: 'retryable', reason: `could not connect to ${target.origin} (ECONNREFUSED)`, fix: `check ${baseUrl} or --region, and that the service is reachable from here`, errorCode };
    }
    return { kind: 'retryable', reason: `${reason}${target ? ` to ${target.origin}` : ''} (${errorCode})`, errorCode };
  }
  if (isTlsError(errorCode)) {
    // The handshake failed before anything was sent; the same certificate will fail again.
    if (/wrong version number|packet length too long|http request/i.test(failure.message ?? '') && target) {
      return { kind: 'retryable', reason: `TLS failed (${errorCode}): the server at ${target.host} seems to speak plain http, not https`, fix: `use http://${target.host} as the base URL`, errorCode, permanent: true };
    }
    const detail = failure.message ? `: ${failure.message}` : '';
    if (UNTRUSTED_ISSUER.has(errorCode)) {
      // Certificate checks are never switched off (docs/behaviour.md#base-url): a CA of one's own is given to Node.js.
      return {
        kind: 'retryable',
        reason: `TLS failed (${errorCode})${detail}: the server's certificate is not signed by a CA that Node.js trusts`,
        fix: "if it is your own (a private CA, or the emulator's --tls-cert), give its CA certificate to pushctl with NODE_EXTRA_CA_CERTS=<ca.pem>",
        errorCode,
        permanent: true,
      };
    }
    return { kind: 'retryable', reason: `TLS failed (${errorCode})${detail}`, errorCode, permanent: true };
  }
  if (errorCode === 'TIMEOUT') {
    if (!connected) return { kind: 'retryable', reason: 'connect timeout', errorCode };
    if (!requestWritten) return { kind: 'retryable', reason: 'timed out before the request was sent', errorCode };
    return { kind: 'in_doubt', reason: 'timed out waiting for the answer after the request was sent', errorCode };
  }
  // A half-written request cannot be processed: the service never saw a complete JSON body. EPIPE is only
  // ever the answer to a write of ours, so the request was not complete whatever the flags say.
  if (errorCode === 'EPIPE') return { kind: 'retryable', reason: 'connection closed while the request was being written (EPIPE)', errorCode };
  if (!requestWritten) return { kind: 'retryable', reason: `connection failed before the request was sent (${errorCode})`, errorCode };
  return { kind: 'in_doubt', reason: `connection failed after the request was sent (${errorCode})`, errorCode };
}

/**
 * A CONNECT tunnel the proxy did not open: the request never left pushctl, so the service cannot have seen it,
 * whatever the proxy answered. A proxy that refuses us (401, 403, 407) will refuse again: no retries, and the
 * way out is the proxy's credentials or access rules, not the base URL. Anything else (tinyproxy's 500 or
 * 502 for an upstream it cannot reach, a dropped connection) is retried like a refused connection. The
 * reason starts with "the proxy", which the proxied client replaces with the proxy's name.
 */
function classifyTunnelFailure(failure: NetworkFailure): Retryable {
  const { errorCode, proxyStatus } = failure;
  const what = failure.message ?? 'the proxy did not open the tunnel';
  if (proxyStatus === 407) {
    return { kind: 'retryable', reason: `${what}: the proxy requires authentication (407); put the credential in the proxy URL (http://user:password@host:port) in HTTPS_PROXY or the \`proxy\` config key; nothing was sent`, errorCode, httpStatus: 407, permanent: true };
  }
  if (proxyStatus === 401 || proxyStatus === 403) {
    return { kind: 'retryable', reason: `${what}: the proxy refused the tunnel; check the proxy's credentials and its access rules (ACL) for this host; nothing was sent`, errorCode, httpStatus: proxyStatus, permanent: true };
  }
  return { kind: 'retryable', reason: `${what}; nothing was sent`, errorCode, ...(proxyStatus !== undefined ? { httpStatus: proxyStatus } : {}) };
}

/**
 * Parse a `Retry-After` value (delay in seconds, or an HTTP-date) into milliseconds from now.
 * Returns undefined for anything unparseable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

interface ServiceBody {
  status: number;
  message: string;
  messageId?: string;
  /** A message_id that is there but no usable one: what is wrong with it. */
  idFault?: string;
}

/**
 * The documented response shape, or undefined when the text is not the service speaking: not JSON, or a
 * `status` that is neither 200 nor a five-digit service code (a gateway's `{"status":503}` is judged by
 * its HTTP status instead, docs/behaviour.md#retries).
 */
export function parseServiceBody(text: string): ServiceBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(json)) return undefined;
  const status = toStatus(json['status']);
  if (status === undefined || !isServiceStatus(status)) return undefined;
  const message = typeof json['message'] === 'string' ? json['message'] : '';
  const result = json['result'];
  const rawId = isRecord(result) ? result['message_id'] : undefined;
  const messageId = typeof rawId === 'string' && rawId !== '' ? rawId : typeof rawId === 'number' ? rawNumberId(text) : undefined;
  if (messageId !== undefined) return { status, message, messageId };
  const idFault = isRecord(result) && 'message_id' in result ? messageIdFault(rawId) : undefined;
  return idFault === undefined ? { status, message } : { status, message, idFault };
}

/** 200, or a code of the service's own five-digit table (21xxx, 22xxx, ...). */
function isServiceStatus(status: number): boolean {
  return status === STATUS_OK || (status >= 10_000 && status <= 99_999);
}

/** A numeric message_id exactly as the service wrote it: a large one would lose digits as a JS number. */
function rawNumberId(text: string): string | undefined {
  let raw: string | undefined;
  // The last one, as JSON.parse keeps the last of duplicate keys; an answer is not a message, so it may nest
  // deeper than one (the walk stops there, never deep enough to exhaust the stack).
  scanJson(text, 1000, (path, offset, length) => {
    if (path.length === 2 && path[0] === 'result' && path[1] === 'message_id') raw = text.slice(offset, offset + length);
  });
  return raw;
}

function toStatus(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  // Some gateways stringify numbers; a string of digits is unambiguous enough to accept.
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function withRetryAfter(outcome: Retryable, response: ResponseView, nowMs: number): Retryable {
  const retryAfterMs = parseRetryAfter(response.headers['retry-after'], nowMs);
  return retryAfterMs === undefined ? outcome : { ...outcome, retryAfterMs };
}

/** OpenSSL's codes for a chain that ends at no CA Node.js trusts: what NODE_EXTRA_CA_CERTS mends. */
const UNTRUSTED_ISSUER = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

function isTlsError(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.includes('CERT') ||
    code === 'EPROTO' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
