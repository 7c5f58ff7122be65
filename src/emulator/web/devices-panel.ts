/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The simulated devices (docs/behaviour.md#devices): a paged list that says where it is in the whole ("101–200 of
// 1,000"), found by text, each device with its own inbox whose messages link to their permalinks.
import type { Device } from '../devices/match.js';
import { $, button, el, num, plural } from './dom.js';
import { hashOfMessage } from './url-state.js';

const PAGE = 100;

/** A device as the devices API lists it: the emulator's own Device, with its inbox's size. */
interface DeviceRow extends Device {
  inbox: number;
  /** The newest message it got: which variant (language, title) of an announcement reached it. */
  last?: InboxItem;
}
interface DevicePage {
  devices: DeviceRow[];
  total: number;
  next_offset: number | null;
}
interface InboxItem {
  message_id: string;
  app_id: string;
  received_at: string;
  title?: string;
  desc?: string;
  type: number;
  languages?: string[];
}

/** `Nouvelle version (fr, fr-CA)`: a message's title and language, the variant a device got. */
const variantOf = (m: InboxItem) => `${m.title ?? (m.type === 2 ? 'data message' : '(no title)')}${m.languages?.length ? ` (${m.languages.join(', ')})` : ''}`;

let offset = 0;
let loading = 0;
let inFlight: Promise<void> | undefined;
let again = false;

/**
 * Reloads the devices (their inbox counts change with every delivery). Calls while a load is in flight
 * make one more load after it, not one each: a burst of pushes costs two requests, not hundreds.
 */
export function refreshDevices(): void {
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = loadDevices().finally(() => {
    inFlight = undefined;
    if (again) {
      again = false;
      refreshDevices();
    }
  });
}

/** Loads the page of devices at the current offset; hides the panel when the emulator has no devices. */
export async function loadDevices(): Promise<void> {
  const mine = ++loading;
  const q = $<HTMLInputElement>('#device-q').value;
  const answer = await fetch(`/v1/emulator/devices?offset=${offset}&limit=${PAGE}&q=${encodeURIComponent(q)}`);
  if (answer.status === 404 || mine !== loading) return;
  const page = (await answer.json()) as DevicePage;
  if (page.devices.length === 0 && offset > 0 && page.total > 0) {
    // The search narrowed the list below this page: start again from its first page.
    offset = 0;
    return loadDevices();
  }
  $('#devices').hidden = false;
  const first = page.devices.length === 0 ? 0 : offset + 1;
  const last = offset + page.devices.length;
  $('#device-count').textContent = `${plural(page.total, 'simulated device')}${q ? ` matching “${q}”` : ''}`;
  $('#device-range').textContent = page.total === 0 ? 'none' : `${num(first)}–${num(last)} of ${num(page.total)}`;
  $<HTMLButtonElement>('#device-prev').disabled = offset === 0;
  $<HTMLButtonElement>('#device-next').disabled = page.next_offset === null;
  $('#device-list').replaceChildren(
    ...page.devices.map((d) => {
      const row = el(
        'li',
        '',
        el('code', 'client-id', d.client_id),
        el('span', 'device-facts', `${d.country} ${d.language} · ${d.brand} ${d.model} · Android API ${d.os_version} · app ${d.app_version}`),
        el('span', 'inbox-count', plural(d.inbox, 'message')),
        d.last ? el('span', 'device-last', `last: ${variantOf(d.last)}`) : '',
      );
      row.tabIndex = 0;
      row.addEventListener('click', () => void openDevice(d.client_id));
      row.addEventListener('keydown', (event) => event.key === 'Enter' && void openDevice(d.client_id));
      return row;
    }),
  );
}

export async function openDevice(clientId: string): Promise<void> {
  const answer = (await (await fetch(`/v1/emulator/devices/${encodeURIComponent(clientId)}`)).json()) as { inbox: InboxItem[] };
  const items = answer.inbox.map((m) => {
    const link = el('a', '', el('strong', '', m.title ?? (m.type === 2 ? 'data message' : '(no title)')), m.desc ? ` ${m.desc}` : '', m.languages?.length ? el('span', 'language', m.languages.join(', ')) : '');
    link.href = hashOfMessage(m.message_id);
    link.title = 'open this message';
    return el('li', '', link);
  });
  $('#device-inbox').replaceChildren(
    el('h3', '', 'Inbox of ', el('code', '', clientId), ` (${plural(answer.inbox.length, 'message')})`, button('close', () => $('#device-inbox').replaceChildren(), 'close')),
    items.length > 0 ? el('ol', '', ...items) : el('p', 'muted', 'nothing received yet'),
  );
}

export function wireDevices(): void {
  $('#device-q').addEventListener('input', () => ((offset = 0), void loadDevices()));
  $('#device-prev').addEventListener('click', () => ((offset = Math.max(0, offset - PAGE)), void loadDevices()));
  $('#device-next').addEventListener('click', () => ((offset += PAGE), void loadDevices()));
}
