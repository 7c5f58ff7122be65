// `GET /v1/emulator/health`: up, with what it keeps and how its event-stream readers are doing.
import { ok, type EmulatorAnswer } from '../answers.js';
import type { RouteCall } from '../state.js';

export function health({ state }: RouteCall): EmulatorAnswer {
  // The IDs (never the secrets) of the apps that accept pushes, in the order configured: the compose panel starts with the first.
  const appIds = [...state.apps.values()].filter((app) => !app.disabled).map((app) => app.id);
  return ok({ apps: state.apps.size, app_ids: appIds, ...state.store.stats(), event_streams: state.events.stats() }, 'health');
}
