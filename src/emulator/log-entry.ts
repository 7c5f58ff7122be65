// The request-log entry of one answered push request: pure, from the answer and the chaos decision.
import { serviceMeaning } from '../message/service-codes.js';
import type { EmulatorAnswer } from './answers.js';
import { PROCESSED_BEFORE_FAULT, type ChaosDecision } from './chaos.js';
import type { PushRecord } from './push.js';
import type { RequestLogEntry } from './request-log.js';

const CHAOS_MEANING: Record<string, string> = {
  '22001': 'called too frequently (chaos; not processed)',
  '503': 'Service Unavailable from a gateway (chaos; not processed)',
  '500': 'Internal Server Error after processing (chaos; delivered)',
  reset: 'connection reset after processing (chaos; delivered)',
  hang: 'no answer (chaos; not processed)',
};

const BODY_TEXT_CLIP = 64 * 1024;

export function logEntryFor(answer: EmulatorAnswer, push: PushRecord, decision: ChaosDecision, receivedAt: number, bodyText: string): Omit<RequestLogEntry, 'seq'> {
  const stored = push.stored;
  const fault = decision.fault;
  const json = answer.json as { status?: unknown; message?: unknown } | null;
  const bodyStatus = typeof json?.status === 'number' ? json.status : 0;
  const entry: Omit<RequestLogEntry, 'seq'> = {
    received_at: new Date(receivedAt).toISOString(),
    app_id: push.app_id,
    outcome: fault ? 'chaos' : stored ? (stored.dry_run ? 'dry_run' : 'accepted') : 'rejected',
    status: fault === 'reset' || fault === 'hang' ? 0 : bodyStatus,
    meaning: fault ? CHAOS_MEANING[fault]! : (serviceMeaning(bodyStatus) ?? `HTTP ${answer.httpStatus}`),
    http_status: fault === 'reset' || fault === 'hang' ? null : answer.httpStatus,
    delivered: stored !== undefined && !stored.dry_run && (!fault || PROCESSED_BEFORE_FAULT[fault]),
  };
  if (stored) entry.message_id = stored.message_id;
  // The code's meaning alone does not say which of its causes it was; the answer's text does.
  else if (!fault && typeof json?.message === 'string') entry.message = json.message;
  if (fault) entry.chaos = { fault, processed: PROCESSED_BEFORE_FAULT[fault], ...(decision.latencyMs > 0 ? { latency_ms: decision.latencyMs } : {}) };
  const body = push.body ?? parseObject(bodyText);
  if (body) entry.body = body;
  else if (bodyText !== '') entry.body_text = bodyText.slice(0, BODY_TEXT_CLIP);
  if (push.errors && push.errors.length > 0) entry.errors = push.errors;
  if (push.warnings && push.warnings.length > 0) entry.warnings = push.warnings;
  if (stored?.languages) entry.languages = stored.languages;
  if (stored?.reached !== undefined) Object.assign(entry, { reached: stored.reached, unknown_client_ids: stored.unknown_client_ids, fleet_size: stored.fleet_size });
  if (stored?.would_reach !== undefined) Object.assign(entry, { would_reach: stored.would_reach, unknown_client_ids: stored.unknown_client_ids, fleet_size: stored.fleet_size });
  return entry;
}

function parseObject(text: string): object | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
