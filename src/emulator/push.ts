// The push endpoint as the service answers it: checks in the order app ID, app, secret, disabled, rate,
// body, client-ID count; then a message ID, and the message kept. Pure apart from the state it updates.
import type { MessageIssue } from '../message/types.js';
import { validateMessage } from '../message/validate.js';
import { ServiceStatus as S } from '../message/service-codes.js';
import { clip, pushed, serviceError, type EmulatorAnswer } from './answers.js';
import type { EmulatorRequest, EmulatorState } from './state.js';
import type { StoredMessage } from './store.js';

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
const BODY_TEXT_CLIP = 64 * 1024;
const MAX_LISTED_REASONS = 20;
/** What a kept message costs beyond its body text: the parsed objects, the entry, the ID. */
const MESSAGE_OVERHEAD_BYTES = 512;

/** Answers one push request; `rawAppId` is the path below PUSH_PATH, still percent-encoded. */
export function acceptPush(request: EmulatorRequest, rawAppId: string, state: EmulatorState): { answer: EmulatorAnswer; record: PushRecord } {
  const record: PushRecord = { app_id: clip(rawAppId) };
  return { answer: push(request, rawAppId, state, record), record };
}

/**
 * Memory a kept message costs, from the size of its request body: parsed and validated, a JSON text takes
 * three to four times its length in objects and strings (measured with 1000 client IDs). Counted without
 * serialising the message again.
 */
function keptBytes(request: EmulatorRequest): number {
  return 4 * request.bodyText.length + MESSAGE_OVERHEAD_BYTES;
}

function push(request: EmulatorRequest, rawAppId: string, state: EmulatorState, record: PushRecord): EmulatorAnswer {
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
  if (secret === undefined || secret === '') return serviceError(S.appSecretMissing, 'send the app secret in the Authorization header');
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
    return serviceError(S.tooFrequent, `more than ${state.rate.rate} requests in one second for app "${clip(appId)}"`, { headers: { 'retry-after': '1' } });
  }

  if ('error' in parsed) return serviceError(S.messageIllegal, parsed.error);
  const result = validateMessage(parsed.json, { asReceived: true });
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
  const stored: StoredMessage = { app_id: appId, message_id: messageId, received_at: new Date(now).toISOString(), dry_run: dryRun, delivered: !dryRun, body };
  // Simulated devices receive what is delivered (their inboxes read it from the store); a dry run reaches no
  // one, but says whom it would reach.
  let deviceLanguages: string[] | undefined;
  if (state.fleet) {
    const { reached, languages, ...rest } = state.fleet.audience(body.condition);
    deviceLanguages = languages;
    Object.assign(stored, dryRun ? { would_reach: reached, ...rest } : { reached, ...rest });
  }
  // The message's language (docs/behaviour.md#variants): what its targeting names, or the devices it listed speak.
  const languages = body.condition.type === 1 ? body.condition.targeting?.language : deviceLanguages;
  if (languages && languages.length > 0) stored.languages = [...languages];
  state.store.add(stored, keptBytes(request));
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
