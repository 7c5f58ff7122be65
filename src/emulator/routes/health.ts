// `GET /v1/emulator/health`: up, with what it keeps and how its event-stream readers are doing.
import { ok, type EmulatorAnswer } from '../answers.js';
import type { RouteCall } from '../state.js';

export function health({ state }: RouteCall): EmulatorAnswer {
  return ok({ apps: state.apps.size, ...state.store.stats(), event_streams: state.events.stats() }, 'health');
}
