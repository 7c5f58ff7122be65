/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The list of answered requests: what the address says (the filters, or one message's permalink), a page at
// a time with older pages on request, live entries added as they come, and the header's count.
import { matches, type RequestLogEntry } from '../request-log.js';
import { card, type Entry } from './entry-card.js';
import { $, button, el, num } from './dom.js';
import { showInvisible } from './invisible-characters.js';
import { markUnread, read } from './unread.js';
import { countLabel, FILTER_NAMES, filtersFromSearch, isFiltered, messageIdFromHash, searchFromFilters, type Filters } from './url-state.js';

/** Entries a page holds; the header still counts them all. */
const LIST_SIZE = 200;
const list = $('#entries');
const inputs = { app: $<HTMLSelectElement>('#app'), kind: $<HTMLSelectElement>('#kind'), outcome: $<HTMLSelectElement>('#outcome'), q: $<HTMLInputElement>('#q') };
const apps = new Set<string>();
/** `shown`: what the filters select (on every page); `total`: every request kept. */
export const counts = { shown: 0, total: 0 };
/** Entries the list holds at most: a page, and a page more for each "show older". */
let kept = LIST_SIZE;
let loading = 0;
/**
 * The newest request the list was loaded with (the server's `last_seq`): a live event for it or an older one
 * is in the list, or in its counts, already. Live events that come while a list is loading wait for it.
 */
let loadedUpTo = 0;
let waiting: Entry[] | undefined;

const currentFilters = (): Filters => ({ app: inputs.app.value, kind: inputs.kind.value, outcome: inputs.outcome.value, q: inputs.q.value });
const inListView = () => document.body.dataset.view === 'list';

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
  $('#empty').hidden = list.children.length > 0 || !inListView();
}

async function fetchPage(before?: string): Promise<{ entries: Entry[]; total: number; matched?: number; last_seq?: number }> {
  const params = new URLSearchParams(searchFromFilters(currentFilters()));
  params.set('limit', String(LIST_SIZE));
  if (before !== undefined) params.set('before', before);
  return (await fetch(`/v1/emulator/requests?${params}`)).json();
}

/** The list now holds everything up to `upTo`: the live entries that waited are applied, those it holds skipped. */
function settle(upTo: number | undefined): void {
  loadedUpTo = upTo ?? 0;
  const queued = waiting ?? [];
  waiting = undefined;
  for (const entry of queued) addLive(entry);
}

async function loadList(): Promise<void> {
  const mine = ++loading;
  waiting ??= [];
  const answer = await fetchPage();
  if (mine !== loading) return;
  for (const entry of answer.entries) noteApp(entry.app_id);
  counts.total = answer.total;
  counts.shown = answer.matched ?? answer.entries.length;
  kept = LIST_SIZE;
  list.replaceChildren(...answer.entries.map((entry) => card(entry)));
  showCount();
  showOlderButton();
  settle(answer.last_seq);
}

/** The list says when it holds less than the filter selects, and loads the next older page on request. */
function showOlderButton(): void {
  const shown = list.querySelectorAll(':scope > article').length;
  let more = list.querySelector<HTMLButtonElement>(':scope > button.older');
  if (!inListView() || counts.shown <= shown) return more?.remove();
  more ??= button('', () => void loadOlder(), 'older');
  more.textContent = `showing the newest ${num(shown)} of ${num(counts.shown)}: show ${num(Math.min(LIST_SIZE, counts.shown - shown))} older`;
  list.append(more);
}

async function loadOlder(): Promise<void> {
  const articles = list.querySelectorAll<HTMLElement>(':scope > article');
  const mine = loading;
  const answer = await fetchPage(articles[articles.length - 1]?.dataset.seq ?? '0');
  if (mine !== loading) return;
  kept += LIST_SIZE;
  list.querySelector(':scope > button.older')?.before(...answer.entries.map((entry) => card(entry)));
  showOlderButton();
}

/** A permalink: the one message, its JSON open, whatever the filters say. */
async function loadMessage(messageId: string): Promise<void> {
  const mine = ++loading;
  waiting ??= [];
  const answer = (await (await fetch(`/v1/emulator/requests?${new URLSearchParams({ q: messageId, limit: '500' })}`)).json()) as { entries: Entry[]; total: number; last_seq?: number };
  if (mine !== loading) return;
  const entry = answer.entries.find((e) => e.message_id === messageId);
  const back = el('a', '', '← all requests');
  back.href = `${location.pathname}${location.search}`;
  const bar = el('div', 'permalink-bar', back, el('span', '', ' · message '), el('code', '', messageId));
  list.replaceChildren(bar, entry ? card(entry, true) : el('p', 'empty', 'This message is no longer in the emulator (the list was cleared, or the emulator restarted or dropped it past its bound).'));
  counts.total = answer.total;
  showCount();
  settle(answer.last_seq);
}

/** Shows what the address says: a permalink, or the list under the filters. */
export function route(): void {
  const id = messageIdFromHash(location.hash);
  document.body.dataset.view = id === undefined ? 'list' : 'message';
  void (id === undefined ? loadList() : loadMessage(id));
}

/** Whether the filters select the entry: the server's own test. */
function passesFilters(entry: Entry): boolean {
  const filters = currentFilters();
  return matches(entry as RequestLogEntry, { ...filters, kind: (filters.kind || undefined) as 'notification' | 'data' | undefined }, filters.q.trim().toLowerCase() || undefined);
}

/** A request answered while the page is open: counted, and shown when it passes the filters (the server's own test). */
export function addLive(entry: Entry): void {
  if (waiting) return void waiting.push(entry);
  if (entry.seq <= loadedUpTo) return;
  noteApp(entry.app_id);
  counts.total += 1;
  if (passesFilters(entry)) {
    counts.shown += 1;
    if (inListView()) {
      const article = card(entry);
      list.prepend(article);
      markUnread(article);
      // The page holds as many as it loaded: a flood of pushes cannot grow it without bound.
      const articles = list.querySelectorAll(':scope > article');
      for (let i = kept; i < articles.length; i++) articles[i]!.remove();
      showOlderButton();
    }
  }
  showCount();
}

/** An entry deleted (on this page or another): gone from the list and the counts. */
export function removeEntry(entry: Entry): void {
  const article = list.querySelector<HTMLElement>(`:scope > article[data-seq="${entry.seq}"]`);
  read(String(entry.seq), article);
  counts.total = Math.max(0, counts.total - 1);
  article?.remove();
  // One the list does not hold (older than its pages) still counted among those the filters select when it matches.
  if (article || passesFilters(entry)) counts.shown = Math.max(0, counts.shown - 1);
  showOlderButton();
  showCount();
}

function applyFiltersFromAddress(): void {
  const filters = filtersFromSearch(location.search);
  if (filters.app) noteApp(filters.app);
  for (const name of FILTER_NAMES) inputs[name].value = filters[name];
}

export function wireList(): void {
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
}
