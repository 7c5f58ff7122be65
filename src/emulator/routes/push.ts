// `POST /v1/message/push/{AppID}`: the service's endpoint (push.ts), with the chaos in force (chaos.ts)
// deciding whether the answer is a fault, and every answer added to the request log.
import { clip, type EmulatorAnswer } from '../answers.js';
import { PROCESSED_BEFORE_FAULT, type ChaosFault } from '../chaos.js';
import { logEntryFor } from '../log-entry.js';
import { acceptPush, type PushRecord } from '../push.js';
import type { RouteCall } from '../state.js';

export function push({ request, rest, state }: RouteCall): EmulatorAnswer {
  const decision = state.chaos.decide();
  const fault = decision.fault;
  let answer: EmulatorAnswer;
  let record: PushRecord;
  // A fault "before processing" answers without the service: nothing is stored, nothing delivered.
  if (fault && !PROCESSED_BEFORE_FAULT[fault]) {
    answer = chaosAnswer(fault);
    record = { app_id: appIdOf(rest) };
  } else {
    ({ answer, record } = acceptPush(request, rest, state));
    if (fault) answer = chaosAnswer(fault);
  }
  const receivedAt = request.receivedAt ?? state.now();
  state.log.add(logEntryFor(answer, record, decision, receivedAt, request.bodyText));
  return decision.latencyMs > 0 ? { ...answer, delayMs: decision.latencyMs } : answer;
}

/** The answer of a chaos fault; `note` marks it in the log line. */
function chaosAnswer(fault: ChaosFault): EmulatorAnswer {
  switch (fault) {
    case '22001':
      return { httpStatus: 200, headers: { 'retry-after': '1' }, json: { status: 22001, message: 'called too frequently (chaos)' }, note: 'chaos 22001 (not processed)' };
    case '503':
      // A gateway's answer, not the service's: JSON whose status is no service code.
      return { httpStatus: 503, headers: { 'retry-after': '1' }, json: { status: 503, error: 'Service Unavailable' }, note: 'chaos 503 (not processed)' };
    case '500':
      return { httpStatus: 500, headers: {}, json: { status: 500, error: 'Internal Server Error' }, note: 'chaos 500 (processed: delivered)' };
    case 'reset':
      return { httpStatus: 0, headers: {}, json: null, note: 'chaos reset (processed: delivered; connection destroyed)', cut: 'reset' };
    case 'hang':
      // Never answered: the client's timeout decides, and closing the emulator ends it.
      return { httpStatus: 0, headers: {}, json: null, note: 'chaos hang (not processed; no answer)', cut: 'hang' };
  }
}

function appIdOf(rest: string): string {
  try {
    return clip(decodeURIComponent(rest));
  } catch {
    return clip(rest);
  }
}
