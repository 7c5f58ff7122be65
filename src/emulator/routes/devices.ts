// `GET /v1/emulator/devices?q=&offset=&limit=` lists the simulated devices with the size of their inboxes;
// `GET /v1/emulator/devices/{client_id}` is one device with its inbox, newest first.
import { clip, httpError, ok, type EmulatorAnswer } from '../answers.js';
import { inboxOf, inboxSummaries } from '../devices/inbox.js';
import type { RouteCall } from '../state.js';
import { wholeNumberParam } from './query.js';

const NO_FLEET = 'no simulated devices: start the emulator with --devices <file> or --fleet <N>';

export function listDevices({ query, state }: RouteCall): EmulatorAnswer {
  if (!state.fleet) return httpError(404, NO_FLEET);
  // A bad number reads as absent: the page passes what its controls hold.
  const number = (name: string) => {
    const value = wholeNumberParam(query, name);
    return value === 'bad' ? undefined : value;
  };
  const q = query.get('q');
  const offset = number('offset');
  const limit = number('limit');
  const listed = state.fleet.list({ ...(q ? { q } : {}), ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) });
  const { counts, newest } = inboxSummaries(listed.devices, state.store.newestFirst());
  // `last`: the newest message the device got, so the panel shows which variant (language, title) that was.
  return ok({ ...listed, devices: listed.devices.map((device, i) => ({ ...device, inbox: counts[i], ...(newest[i] ? { last: newest[i] } : {}) })) }, 'devices');
}

export function showDevice({ rest, state }: RouteCall): EmulatorAnswer {
  if (!state.fleet) return httpError(404, NO_FLEET);
  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    return httpError(400, 'the client ID in the path is not validly percent-encoded');
  }
  const device = state.fleet.find(id);
  if (!device) return httpError(404, `no simulated device "${clip(id)}"`);
  return ok({ device, inbox: inboxOf(device, state.store.newestFirst()) }, `device ${clip(id)}`);
}
