// `GET /v1/emulator/messages?app=&limit=`: what the emulator accepted; `DELETE` forgets it.
import { clip, httpError, ok, type EmulatorAnswer } from '../answers.js';
import type { RouteCall } from '../state.js';
import { wholeNumberParam } from './query.js';

export function listMessages({ query, state }: RouteCall): EmulatorAnswer {
  const app = query.get('app') ?? undefined;
  const limit = wholeNumberParam(query, 'limit');
  if (limit === 'bad') return httpError(400, `limit must be a whole number, got "${clip(query.get('limit') ?? '')}"`);
  const listed = state.store.list(app, limit);
  return ok({ ...state.store.stats(app), messages: listed }, `listed ${listed.length}`);
}

export function clearMessages({ query, state }: RouteCall): EmulatorAnswer {
  // The request log is cleared whole (the page's clear button means "start afresh"); the devices' inboxes
  // are read from the kept messages, so they empty with them.
  state.log.clear();
  return ok({ deleted: state.store.clear(query.get('app') ?? undefined) }, 'cleared');
}
