// What the emulator sends back, and the few shapes every route builds its answer from.
import { SERVICE_MEANINGS, type ServiceErrorStatus } from '../message/service-codes.js';

/** An HTTP status, extra headers and a JSON body; `note` is the log line's account of it. */
export interface EmulatorAnswer {
  httpStatus: number;
  headers: Record<string, string>;
  json: unknown;
  /** A short note for the log line (the message_id or the reason); never contains a secret. */
  note: string;
  /** Chaos: answer after this many milliseconds. */
  delayMs?: number;
  /** Chaos: destroy the connection instead of answering (`reset`), or never answer (`hang`). */
  cut?: 'reset' | 'hang';
}

/**
 * A service-level error. Every answer of the push endpoint is HTTP 200 and the body's `status` carries the
 * code: the interface document does not say which HTTP statuses the service uses, and clients are told to
 * trust the body, so the emulator exercises exactly that path.
 */
export function serviceError(
  status: ServiceErrorStatus,
  detail: string,
  extra: { headers?: Record<string, string>; errors?: unknown[] } = {},
): EmulatorAnswer {
  const message = `${SERVICE_MEANINGS[status]}: ${detail}`;
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
export function httpError(httpStatus: 400 | 403 | 404 | 405 | 500, message: string, headers: Record<string, string> = {}): EmulatorAnswer {
  return { httpStatus, headers, json: { status: httpStatus, message }, note: `${httpStatus} ${message}` };
}

export function ok(json: Record<string, unknown>, note: string): EmulatorAnswer {
  return { httpStatus: 200, headers: {}, json: { status: 200, message: 'OK', ...json }, note };
}

/** Keeps echoed input short in answers and logs. */
export function clip(text: string, max = 100): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
