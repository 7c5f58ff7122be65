/// <reference lib="dom" />
// The inbox page (docs/behaviour.md#inbox): a plain client of the emulator's documented API, served as a file of its
// own so the page's CSP can forbid inline script. The address holds the state: filters in the query string,
// a message's permalink in the hash (`#/m/<message_id>`).
import type { Entry } from './entry-card.js';
import { toggleCompose, wireCompose } from './compose-panel.js';
import { loadDevices, refreshDevices, wireDevices } from './devices-panel.js';
import { $, num } from './dom.js';
import { addLive, counts, removeEntry, route, wireList } from './request-list.js';
import { forgetUnread } from './unread.js';

function connect(): void {
  const events = new EventSource('/v1/emulator/events');
  const status = $('#live');
  let reconnecting = false;
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'live on';
    // Back after a break (the emulator restarted, the network dropped): what was missed is loaded afresh.
    if (reconnecting) {
      route();
      refreshDevices();
    }
    reconnecting = false;
  });
  events.addEventListener('error', () => ((status.textContent = 'reconnecting…'), (status.className = 'live off'), (reconnecting = true)));
  events.addEventListener('request', (event) => {
    addLive(JSON.parse((event as MessageEvent<string>).data) as Entry);
    refreshDevices();
  });
  events.addEventListener('removed', (event) => {
    removeEntry((JSON.parse((event as MessageEvent<string>).data) as { entry: Entry }).entry);
    refreshDevices();
  });
  // A clear empties every device's inbox as well: the devices' counts are loaded afresh with the list.
  events.addEventListener('cleared', () => (forgetUnread(), route(), refreshDevices()));
  // A reader that fell far behind is told how many entries it missed: load the list afresh.
  events.addEventListener('skipped', () => (route(), refreshDevices()));
}

/** Clearing forgets everything for every open page, so it asks first and says how much goes. */
function wireClear(): void {
  const dialog = $<HTMLDialogElement>('#clear-dialog');
  $('#clear').addEventListener('click', () => {
    $('#clear-what').textContent = `${num(counts.total)} request${counts.total === 1 ? '' : 's'}`;
    dialog.showModal();
  });
  $('#clear-cancel').addEventListener('click', () => dialog.close());
  $('#clear-confirm').addEventListener('click', () => {
    dialog.close();
    void fetch('/v1/emulator/messages', { method: 'DELETE' });
  });
}

/** Light or dark: the system's choice until the button makes one, which is remembered. */
function theme(next?: string): void {
  const chosen: string = next ?? localStorage.getItem('pushctl-theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = chosen;
  if (next) localStorage.setItem('pushctl-theme', chosen);
}

theme();
$('#theme').addEventListener('click', () => theme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'));
wireClear();
wireDevices();
wireCompose();
wireList();
if (new URLSearchParams(location.search).has('compose')) toggleCompose(true);
route();
connect();
void loadDevices();
