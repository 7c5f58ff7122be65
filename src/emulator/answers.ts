/** The service's status codes (SPEC section 1) and the text the emulator puts in `message`. */
export const ServiceStatus = {
  ok: 200,
  appIdMissing: 21001,
  appIdIllegal: 21002,
  appSecretMissing: 21003,
  appSecretIllegal: 21004,
  messageIllegal: 21005,
  clientIdTooMuch: 21006,
  appDisabled: 21007,
  tooFrequent: 22001,
} as const;
export type ServiceStatus = (typeof ServiceStatus)[keyof typeof ServiceStatus];

const MEANING: Record<number, string> = {
  21001: 'App ID missing',
  21002: 'App ID illegal',
  21003: 'App Secret missing',
  21004: 'App Secret illegal',
  21005: 'Message illegal',
  21006: 'Client ID too much',
  21007: 'App push SDK disabled',
  22001: 'Called too frequently',
};

/** What the emulator sends back: an HTTP status, extra headers and a JSON body. */
export interface EmulatorAnswer {
  httpStatus: number;
  headers: Record<string, string>;
  json: unknown;
  /** A short note for the log line (the message_id or the reason); never contains a secret. */
  note: string;
  /** For a push request: what it was, for the request log. */
  push?: import('./handler.js').PushRecord;
}

/**
 * A service-level error. Every answer of the push endpoint is HTTP 200 and the body's `status` carries the
 * code: the interface document does not say which HTTP statuses the service uses, and clients are told to
 * trust the body, so the emulator exercises exactly that path.
 */
export function serviceError(
  status: Exclude<ServiceStatus, 200>,
  detail: string,
  extra: { headers?: Record<string, string>; errors?: unknown[] } = {},
): EmulatorAnswer {
  const message = `${MEANING[status]}: ${detail}`;
  const json = extra.errors ? { status, message, errors: extra.errors } : { status, message };
  return { httpStatus: 200, headers: extra.headers ?? {}, json, note: `${status} ${message}` };
}

export function pushed(messageId: string, dryRun: boolean): EmulatorAnswer {
  return {
    httpStatus: 200,
    headers: {},
    json: { status: 200, message: 'OK', result: { message_id: messageId } },
    note: dryRun ? `200 ${messageId} (dry run, not delivered)` : `200 ${messageId}`,
  };
}

/** An answer outside the service's own protocol (unknown path, wrong method, emulator fault): real HTTP status. */
export function httpError(httpStatus: 400 | 404 | 405 | 500, message: string, headers: Record<string, string> = {}): EmulatorAnswer {
  return { httpStatus, headers, json: { status: httpStatus, message }, note: `${httpStatus} ${message}` };
}

export function ok(json: Record<string, unknown>, note: string): EmulatorAnswer {
  return { httpStatus: 200, headers: {}, json: { status: 200, message: 'OK', ...json }, note };
}
