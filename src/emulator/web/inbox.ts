/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The inbox page (SPEC section 9): a plain client of the emulator's documented API, served as a file of its
// own so the page's CSP can forbid inline script. The address holds the state: filters in the query string,
// a message's permalink in the hash (`#/m/<message_id>`).
import { card, type Entry } from './entry-card.js';
import { toggleCompose, wireCompose } from './compose-panel.js';
import { loadDevices, wireDevices } from './devices-panel.js';
import { $, el, num } from './dom.js';
import { showInvisible } from './invisible-characters.js';
import { countLabel, FILTER_NAMES, filtersFromSearch, isFiltered, messageIdFromHash, searchFromFilters, type Filters } from './url-state.js';

const list = $('#entries');
const inputs = { app: $<HTMLSelectElement>('#app'), kind: $<HTMLSelectElement>('#kind'), outcome: $<HTMLSelectElement>('#outcome'), q: $<HTMLInputElement>('#q') };
const apps = new Set<string>();
const counts = { shown: 0, total: 0 };

const currentFilters = (): Filters => ({ app: inputs.app.value, kind: inputs.kind.value, outcome: inputs.outcome.value, q: inputs.q.value });

function noteApp(app: string): void {
  if (!app || apps.has(app)) return;
  apps.add(app);
  const option = el('option');
  option.value = app;
  option.textContent = showInvisible(app);
  inputs.app.append(option);
}

function showCount(): void {
  $('#count').textContent = countLabel(counts.shown, counts.total, isFiltered(currentFilters()));
  $('#empty').hidden = list.children.length > 0 || messageIdFromHash(location.hash) !== undefined;
}

let loading = 0;
async function loadList(): Promise<void> {
  const mine = ++loading;
  const params = new URLSearchParams(searchFromFilters(currentFilters()));
  params.set('limit', '200');
  const answer = (await (await fetch(`/v1/emulator/requests?${params}`)).json()) as { entries: Entry[]; total: number; matched?: number };
  if (mine !== loading) return;
  for (const entry of answer.entries) noteApp(entry.app_id);
  counts.total = answer.total;
  counts.shown = answer.matched ?? answer.entries.length;
  list.replaceChildren(...answer.entries.map((entry) => card(entry)));
  showCount();
}

/** A permalink: the one message, its JSON open, whatever the filters say. */
async function loadMessage(messageId: string): Promise<void> {
  const mine = ++loading;
  const answer = (await (await fetch(`/v1/emulator/requests?${new URLSearchParams({ q: messageId, limit: '500' })}`)).json()) as { entries: Entry[]; total: number };
  if (mine !== loading) return;
  const entry = answer.entries.find((e) => e.message_id === messageId);
  const back = el('a', '', '← all requests');
  back.href = `${location.pathname}${location.search}`;
  const bar = el('div', 'permalink-bar', back, el('span', '', ' · message '), el('code', '', messageId));
  list.replaceChildren(bar, entry ? card(entry, true) : el('p', 'empty', 'This message is no longer in the emulator (the list was cleared, or the emulator restarted or dropped it past its bound).'));
  counts.total = answer.total;
  showCount();
}

/** Shows what the address says: a permalink, or the list under the filters. */
function route(): void {
  document.body.dataset.view = messageIdFromHash(location.hash) === undefined ? 'list' : 'message';
  const id = messageIdFromHash(location.hash);
  void (id === undefined ? loadList() : loadMessage(id));
}

function applyFiltersFromAddress(): void {
  const filters = filtersFromSearch(location.search);
  if (filters.app) noteApp(filters.app);
  for (const name of FILTER_NAMES) inputs[name].value = filters[name];
}

/** Whether a live entry passes the filters in force (the server applies the same rules when loading). */
function passes(entry: Entry): boolean {
  const kind = entry.body?.type === 2 ? 'data' : entry.body?.type === 1 ? 'notification' : '';
  const filters = currentFilters();
  const text = filters.q.trim().toLowerCase();
  const haystack = [entry.message_id, entry.app_id, entry.meaning, entry.body_text, JSON.stringify(entry.body ?? '')].join('\n').toLowerCase();
  return (!filters.app || entry.app_id === filters.app) && (!filters.outcome || entry.outcome === filters.outcome) && (!filters.kind || kind === filters.kind) && (!text || haystack.includes(text));
}

function connect(): void {
  const events = new EventSource('/v1/emulator/events');
  const status = $('#live');
  events.addEventListener('open', () => ((status.textContent = 'live'), (status.className = 'live on')));
  events.addEventListener('error', () => ((status.textContent = 'reconnecting…'), (status.className = 'live off')));
  events.addEventListener('request', (event) => {
    const entry = JSON.parse((event as MessageEvent<string>).data) as Entry;
    noteApp(entry.app_id);
    counts.total += 1;
    if (passes(entry)) {
      counts.shown += 1;
      if (document.body.dataset.view === 'list') list.prepend(card(entry));
    }
    showCount();
    void loadDevices();
  });
  events.addEventListener('cleared', () => route());
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
applyFiltersFromAddress();
for (const input of Object.values(inputs)) {
  input.addEventListener('input', () => {
    // The filters go into the address (replaced, not pushed: typing a search is not a trail to go back through).
    history.replaceState(null, '', `${location.pathname}${searchFromFilters(currentFilters())}`);
    route();
  });
}
window.addEventListener('hashchange', route);
window.addEventListener('popstate', () => (applyFiltersFromAddress(), route()));
if (new URLSearchParams(location.search).has('compose')) toggleCompose(true);
route();
connect();
void loadDevices();
