// `GET /v1/emulator/requests?app=&outcome=&kind=&q=&before=&limit=`: every push request answered, newest first.
import { clip, httpError, ok, type EmulatorAnswer } from '../answers.js';
import { REQUEST_OUTCOMES, type RequestQuery } from '../request-log.js';
import type { RouteCall } from '../state.js';
import { wholeNumberParam } from './query.js';

/** `DELETE /v1/emulator/requests/{seq}`: forgets one entry, and the message it stored (devices' inboxes too). */
export function deleteRequest({ rest, state }: RouteCall): EmulatorAnswer {
  if (!/^\d{1,15}$/.test(rest)) return httpError(400, `the entry's seq must be a whole number, got "${clip(rest)}"`);
  const entry = state.log.remove(Number(rest));
  if (!entry) return httpError(404, `no entry ${rest}: it was deleted, cleared or dropped past the log's bound`);
  if (entry.message_id) state.store.remove(entry.message_id);
  return ok({ deleted: Number(rest) }, `deleted entry ${rest}`);
}

export function listRequests({ query, state }: RouteCall): EmulatorAnswer {
  const limit = wholeNumberParam(query, 'limit');
  const before = wholeNumberParam(query, 'before');
  if (limit === 'bad' || before === 'bad') return httpError(400, 'limit and before must be whole numbers');
  const kind = query.get('kind');
  if (kind !== null && kind !== '' && kind !== 'notification' && kind !== 'data') return httpError(400, `kind must be notification or data, got "${clip(kind)}"`);
  // An outcome no entry can have would list nothing, as if nothing had happened: "delivered" is the page's word for accepted.
  const outcome = query.get('outcome');
  if (outcome && !(REQUEST_OUTCOMES as readonly string[]).includes(outcome)) return httpError(400, `outcome must be accepted, dry_run, rejected or chaos, got "${clip(outcome)}"`);
  const q: RequestQuery = {
    ...(query.get('app') ? { app: query.get('app')! } : {}),
    ...(outcome ? { outcome } : {}),
    ...(kind ? { kind } : {}),
    ...(query.get('q') ? { q: query.get('q')! } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
  const page = state.log.list(q);
  return ok({ ...page }, `listed ${page.entries.length} requests`);
}
