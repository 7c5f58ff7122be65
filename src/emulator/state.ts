// Everything the routes read or update, and the shape of a request as they see it. No I/O here: the server
// (server.ts) reads requests and writes answers; the routes are functions of a request and this state.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorAnswer } from './answers.js';
import type { EmulatorApp } from './apps.js';
import { Chaos } from './chaos.js';
import type { Fleet } from './devices/fleet.js';
import { EventFanout } from './event-fanout.js';
import { RateWindow } from './rate-window.js';
import { RequestLog } from './request-log.js';
import { MessageStore } from './store.js';

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

export interface EmulatorState {
  apps: ReadonlyMap<string, EmulatorApp>;
  store: MessageStore;
  rate: RateWindow;
  /** Most client IDs in one request (21006); 0 means no limit. */
  maxClientIds: number;
  /** Milliseconds since the epoch. */
  now: () => number;
  newMessageId: () => string;
  /** Every push request answered, for `GET /v1/emulator/requests` and the inbox page. */
  log: RequestLog;
  /** The event-stream readers, each request-log entry serialised once for all of them. */
  events: EventFanout;
  chaos: Chaos;
  /** Simulated devices: who a delivered message reaches (docs/behaviour.md#devices). */
  fleet?: Fleet;
}

/** What a route is given: the request, its path below the route's own, its query, and the state. */
export interface RouteCall {
  request: EmulatorRequest;
  /** The request's path, without the query. */
  path: string;
  /** The path below a prefix route's (`demo-app` of `/v1/message/push/demo-app`), still percent-encoded. */
  rest: string;
  query: URLSearchParams;
  state: EmulatorState;
}

/** A route that keeps the connection (the event stream) or sends no JSON (the page) answers by itself. */
export interface StreamReply {
  stream: (req: IncomingMessage, res: ServerResponse) => void;
}

export type Reply = EmulatorAnswer | StreamReply;

/** The state with defaults for what is not given: no apps, no rate limit, 1000 client IDs, the real clock. */
export function createState(given: Partial<EmulatorState> & Pick<EmulatorState, 'apps'>): EmulatorState {
  const store = given.store ?? new MessageStore();
  const log = given.log ?? new RequestLog();
  return {
    store,
    rate: new RateWindow(0),
    maxClientIds: 1000,
    now: Date.now,
    newMessageId: () => `emu-${crypto.randomUUID()}`,
    chaos: new Chaos(),
    events: given.events ?? new EventFanout(log),
    ...given,
    log,
  };
}
