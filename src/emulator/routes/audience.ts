// `GET /v1/emulator/audience?condition=<JSON>`: how many simulated devices a condition reaches, so the
// compose panel can say it while the message is being written (the same count a dry run reports).
import { clip, httpError, ok, type EmulatorAnswer } from '../answers.js';
import type { PushMessage } from '../../message/types.js';
import type { RouteCall } from '../state.js';

export function estimateAudience({ query, state }: RouteCall): EmulatorAnswer {
  if (!state.fleet) return httpError(404, 'no simulated devices: start the emulator with --devices <file> or --fleet <N>');
  let condition: unknown;
  try {
    condition = JSON.parse(query.get('condition') ?? '');
  } catch {
    return httpError(400, `condition must be the message's condition as JSON, got "${clip(query.get('condition') ?? '')}"`);
  }
  const type = (condition as { type?: unknown } | null)?.type;
  if (type !== 0 && type !== 1 && type !== 2) return httpError(400, 'condition.type must be 0 (all), 1 (targeting) or 2 (client IDs)');
  return ok({ ...state.fleet.audience(condition as PushMessage['condition']) }, 'audience estimate');
}
