import { validateMessage } from '../message/validate.js';
import type { MessageIssue } from '../message/types.js';
import { httpError, ok, pushed, serviceError, ServiceStatus, type EmulatorAnswer } from './answers.js';
import type { EmulatorApp } from './apps.js';
import type { RateWindow } from './rate-window.js';
import type { MessageStore, StoredMessage } from './store.js';
import { ChaosSpecError, parseChaosSpec, type Chaos } from './chaos.js';
import type { RequestLog, RequestQuery } from './request-log.js';

/** One HTTP request as the server read it. Header names are lower case, as node:http gives them. */
export interface EmulatorRequest {
  method: string;
  /** The request target: path and optional query string, e.g. `/v1/emulator/messages?app=a`. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  bodyText: string;
  /** Set when the body was larger than the server accepts; `bodyText` is then empty. */
  bodyTooLarge?: { limit: number };
  /**
   * When the request arrived (ms since the epoch), before its body was read: the rate limit and
   * `received_at` use it, so the time to upload a big body does not shift a request into another window.
   */
  receivedAt?: number;
}

/** Everything the handler reads or updates; it does no I/O of its own. */
export interface HandlerState {
  apps: ReadonlyMap<string, EmulatorApp>;
  store: MessageStore;
  rate: RateWindow;
  /** Most client IDs in one request (21006); 0 means no limit. */
  maxClientIds: number;
  /** Milliseconds since the epoch. */
  now: () => number;
  newMessageId: () => string;
  /** Every push request answered, for `GET /v1/emulator/requests` and the inbox page. */
  log?: RequestLog;
  chaos?: Chaos;
  /** Simulated devices: who a delivered message reaches (SPEC section 9). */
  fleet?: FleetView;
}

/** What the handler needs of the simulated devices (devices/fleet.ts). */
export interface FleetView {
  deliver(message: StoredMessage): Audience;
  /** The audience of a dry run: counted, not delivered. */
  wouldReach(message: StoredMessage): Audience;
  list(query: { q?: string; offset?: number; limit?: number }): object;
  device(clientId: string): object | undefined;
  clear(): void;
}

/** Whom a delivered message reached among the simulated devices. */
export interface Audience {
  reached: number;
  unknown_client_ids: number;
  fleet_size: number;
}

/** What a push request was, for the request log; filled in as far as the request got. */
export interface PushRecord {
  app_id: string;
  body?: object;
  body_text?: string;
  errors?: MessageIssue[];
  warnings?: MessageIssue[];
  stored?: StoredMessage;
}

export const PUSH_PATH = '/v1/message/push';
export const MESSAGES_PATH = '/v1/emulator/messages';
export const HEALTH_PATH = '/v1/emulator/health';
export const REQUESTS_PATH = '/v1/emulator/requests';
export const EVENTS_PATH = '/v1/emulator/events';
export const CHAOS_PATH = '/v1/emulator/chaos';
export const DEVICES_PATH = '/v1/emulator/devices';
const ROUTES = `POST ${PUSH_PATH}/{AppID}, GET|DELETE ${MESSAGES_PATH}?app=..., GET ${REQUESTS_PATH}, GET ${EVENTS_PATH}, GET|PUT ${CHAOS_PATH}, GET ${DEVICES_PATH}[/{client_id}], GET ${HEALTH_PATH}`;
const BODY_TEXT_CLIP = 64 * 1024;
const MAX_LISTED_REASONS = 20;

/** Answers one request: the push endpoint as the service does, plus the emulator's own inspection routes. */
export function handleRequest(request: EmulatorRequest, state: HandlerState): EmulatorAnswer {
  const queryAt = request.url.indexOf('?');
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
  if (path === PUSH_PATH || path.startsWith(`${PUSH_PATH}/`)) {
    if (request.method !== 'POST') return methodNotAllowed(request.method, path, 'POST');
    const record: PushRecord = { app_id: '' };
    const answer = push(request, path.slice(PUSH_PATH.length + 1), state, record);
    return { ...answer, push: record };
  }
  if (path === MESSAGES_PATH) return messages(request.method, query, state);
  if (path === REQUESTS_PATH) {
    if (request.method !== 'GET') return methodNotAllowed(request.method, path, 'GET');
    return requests(query, state);
  }
  if (path === CHAOS_PATH) return chaos(request, state);
  if (path === DEVICES_PATH || path.startsWith(`${DEVICES_PATH}/`)) {
    if (request.method !== 'GET') return methodNotAllowed(request.method, path, 'GET');
    return devices(path.slice(DEVICES_PATH.length + 1), query, state);
  }
  if (path === HEALTH_PATH) {
    if (request.method !== 'GET') return methodNotAllowed(request.method, path, 'GET');
    return ok({ apps: state.apps.size, ...state.store.stats() }, 'health');
  }
  return httpError(404, `no route for ${request.method} ${clip(path)}; the emulator serves ${ROUTES}`);
}

function push(request: EmulatorRequest, rawAppId: string, state: HandlerState, record: PushRecord): EmulatorAnswer {
  const S = ServiceStatus;
  record.app_id = clip(rawAppId);
  // Parsed once, first, so the request log shows the body even of a request refused for its credentials.
  const parsed = parseBody(request);
  if ('json' in parsed) record.body = parsed.json as object;
  else if (!request.bodyTooLarge) record.body_text = request.bodyText.slice(0, BODY_TEXT_CLIP);
  if (rawAppId === '') return serviceError(S.appIdMissing, `put the app ID in the path: ${PUSH_PATH}/{AppID}`);
  let appId: string;
  try {
    appId = decodeURIComponent(rawAppId);
  } catch {
    return serviceError(S.appIdIllegal, `the app ID "${clip(rawAppId)}" is not validly percent-encoded`);
  }
  record.app_id = clip(appId);
  const app = state.apps.get(appId);
  if (!app) return serviceError(S.appIdIllegal, `no app with ID "${clip(appId)}"`);

  const secret = header(request.headers, 'authorization');
  if (secret === undefined || secret === '') {
    return serviceError(S.appSecretMissing, 'send the app secret in the Authorization header');
  }
  if (secret !== app.secret) {
    const prefixed = /^(bearer|basic|token)\s+(.*)$/i.exec(secret);
    const detail =
      prefixed && prefixed[2] === app.secret
        ? `send the raw secret in the Authorization header, without the "${prefixed[1]}" prefix`
        : `the Authorization header does not match the secret of app "${clip(appId)}"`;
    return serviceError(S.appSecretIllegal, detail);
  }
  if (app.disabled) return serviceError(S.appDisabled, `the push SDK of app "${clip(appId)}" is disabled`);

  const now = request.receivedAt ?? state.now();
  if (!state.rate.tryTake(appId, now)) {
    return serviceError(S.tooFrequent, `more than ${state.rate.rate} requests in one second for app "${clip(appId)}"`, {
      headers: { 'retry-after': '1' },
    });
  }

  if ('error' in parsed) return serviceError(S.messageIllegal, parsed.error);
  const result = validateMessage(parsed.json);
  record.errors = result.errors;
  record.warnings = result.warnings;
  if (result.errors.length > 0 || !result.body) return serviceError(S.messageIllegal, reasons(result.errors), { errors: result.errors });

  const body = result.body;
  record.body = body;
  const count = body.condition.client_ids?.length ?? 0;
  if (state.maxClientIds > 0 && count > state.maxClientIds) {
    return serviceError(S.clientIdTooMuch, `${count} client IDs in one request; at most ${state.maxClientIds} are allowed`);
  }

  const messageId = state.newMessageId();
  const dryRun = body.dry_run === true;
  const stored: StoredMessage = {
    app_id: appId,
    message_id: messageId,
    received_at: new Date(now).toISOString(),
    dry_run: dryRun,
    delivered: !dryRun,
    body,
  };
  // Simulated devices receive what is delivered; a dry run reaches no one, but says whom it would reach.
  if (state.fleet && !dryRun) Object.assign(stored, state.fleet.deliver(stored));
  if (state.fleet && dryRun) {
    const { reached, ...rest } = state.fleet.wouldReach(stored);
    Object.assign(stored, { would_reach: reached, ...rest });
  }
  state.store.add(stored);
  record.stored = stored;
  return pushed(messageId, dryRun);
}

function parseBody(request: EmulatorRequest): { json: unknown } | { error: string } {
  if (request.bodyTooLarge) return { error: `the request body is larger than ${request.bodyTooLarge.limit} bytes` };
  if (request.bodyText.trim() === '') return { error: 'the request body is empty; send the message as a JSON object' };
  let json: unknown;
  try {
    json = JSON.parse(request.bodyText);
  } catch (error) {
    return { error: `the request body is not valid JSON (${(error as Error).message})` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const kind = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    return { error: `the request body must be a JSON object, not ${kind}` };
  }
  return { json };
}

function messages(method: string, query: URLSearchParams, state: HandlerState): EmulatorAnswer {
  const app = query.get('app') ?? undefined;
  if (method === 'DELETE') {
    // The request log and the devices' inboxes are cleared whole: the page's clear button means "start afresh".
    state.log?.clear();
    state.fleet?.clear();
    return ok({ deleted: state.store.clear(app) }, 'cleared');
  }
  if (method !== 'GET') return methodNotAllowed(method, MESSAGES_PATH, 'GET, DELETE');
  const limitText = query.get('limit');
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    return httpError(400, `limit must be a whole number, got "${clip(limitText ?? '')}"`);
  }
  const listed = state.store.list(app, limit);
  return ok({ ...state.store.stats(app), messages: listed }, `listed ${listed.length}`);
}

function requests(query: URLSearchParams, state: HandlerState): EmulatorAnswer {
  const number = (name: string): number | undefined | 'bad' => {
    const text = query.get(name);
    if (text === null || text === '') return undefined;
    const value = Number(text);
    return Number.isSafeInteger(value) && value >= 0 ? value : 'bad';
  };
  const limit = number('limit');
  const before = number('before');
  if (limit === 'bad' || before === 'bad') return httpError(400, 'limit and before must be whole numbers');
  const kind = query.get('kind');
  if (kind !== null && kind !== '' && kind !== 'notification' && kind !== 'data') return httpError(400, `kind must be notification or data, got "${clip(kind)}"`);
  const q: RequestQuery = {
    ...(query.get('app') ? { app: query.get('app')! } : {}),
    ...(query.get('outcome') ? { outcome: query.get('outcome')! } : {}),
    ...(kind ? { kind } : {}),
    ...(query.get('q') ? { q: query.get('q')! } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
  const page = state.log ? state.log.list(q) : { entries: [], next_before: null, total: 0, matched: 0 };
  return ok({ ...page }, `listed ${page.entries.length} requests`);
}

/** `GET /v1/emulator/devices?q=&offset=&limit=` lists the simulated devices; `/{client_id}` is one with its inbox. */
function devices(rawId: string, query: URLSearchParams, state: HandlerState): EmulatorAnswer {
  if (!state.fleet) return httpError(404, 'no simulated devices: start the emulator with --devices <file> or --fleet <N>');
  if (rawId !== '') {
    let id: string;
    try {
      id = decodeURIComponent(rawId);
    } catch {
      return httpError(400, 'the client ID in the path is not validly percent-encoded');
    }
    const found = state.fleet.device(id);
    return found ? ok({ ...found }, `device ${clip(id)}`) : httpError(404, `no simulated device "${clip(id)}"`);
  }
  const number = (name: string) => {
    const text = query.get(name);
    const value = text === null ? undefined : Number(text);
    return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  };
  const q = query.get('q');
  const offset = number('offset');
  const limit = number('limit');
  const listed = state.fleet.list({ ...(q ? { q } : {}), ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) });
  return ok({ ...listed }, 'devices');
}

/** `GET` shows the chaos in force; `PUT` replaces it, with `{"spec": "503=5%", "seed"?: 7}` or the spec as text. */
function chaos(request: EmulatorRequest, state: HandlerState): EmulatorAnswer {
  if (!state.chaos) return httpError(404, 'this emulator has no chaos mode');
  if (request.method === 'GET') return ok(state.chaos.describe(), 'chaos');
  if (request.method !== 'PUT') return methodNotAllowed(request.method, CHAOS_PATH, 'GET, PUT');
  let spec = request.bodyText;
  let seed: number | undefined;
  if (spec.trim().startsWith('{')) {
    try {
      const json = JSON.parse(spec) as { spec?: unknown; seed?: unknown };
      if (typeof json.spec !== 'string') return httpError(400, 'send {"spec": "503=5%,latency=50-400ms", "seed": 7} or the spec as plain text');
      if (json.seed !== undefined && !(Number.isSafeInteger(json.seed) && (json.seed as number) >= 0)) return httpError(400, 'seed must be a whole number');
      spec = json.spec;
      seed = json.seed as number | undefined;
    } catch (error) {
      return httpError(400, `the body is not valid JSON (${(error as Error).message})`);
    }
  }
  try {
    state.chaos.set(parseChaosSpec(spec), seed);
  } catch (error) {
    if (error instanceof ChaosSpecError) return httpError(400, `chaos: ${error.message}`);
    throw error;
  }
  return ok(state.chaos.describe(), `chaos set to "${clip(state.chaos.describe().spec)}"`);
}

function methodNotAllowed(method: string, path: string, allow: string): EmulatorAnswer {
  return httpError(405, `${method} is not allowed on ${clip(path)}; use ${allow}`, { allow });
}

function reasons(errors: readonly MessageIssue[]): string {
  const shown = errors.slice(0, MAX_LISTED_REASONS).map((e) => `${e.path === '' ? '(body)' : e.path}: ${e.message}`);
  const more = errors.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ') || 'the message is not valid';
}

function header(headers: EmulatorRequest['headers'], name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  return Array.isArray(value) ? value[0] : value;
}

/** Keeps echoed input short in answers and logs. */
function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
