/// <reference lib="dom" />
import type { RequestLogEntry } from '../request-log.js';
// The inbox page (SPEC section 9): a plain client of the emulator's documented API. Every text it shows
// comes from untrusted requests, so the DOM is built with textContent only, never innerHTML with data.

/** A request-log entry as the API sends it, with the body's shape the page reads. */
type Entry = Omit<RequestLogEntry, 'body'> & { body?: Body };

interface Body {
  type?: number;
  time_to_live?: number;
  dry_run?: boolean;
  condition?: { type?: number; client_ids?: string[]; targeting?: Record<string, string[] | undefined> };
  notification?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

/** An element with classes and children; strings become text nodes. */
function el(tag: string, className = '', ...children: (Node | string | undefined | false)[]): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child) node.append(child);
  return node;
}

const OUTCOME_LABEL: Record<Entry['outcome'], string> = {
  accepted: 'delivered',
  dry_run: 'dry run — not delivered',
  rejected: 'rejected',
  chaos: 'chaos',
};

const str = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

/** `3600` → `1 hour`, `90` → `1 min 30 s`. */
function humanDuration(seconds: number): string {
  const units: [number, string][] = [[86400, 'day'], [3600, 'hour'], [60, 'min'], [1, 's']];
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) {
      parts.push(`${n} ${name}${n > 1 && name !== 's' && name !== 'min' ? 's' : ''}`);
      rest -= n * size;
    }
  }
  return parts.join(' ') || '0 s';
}

function audience(body: Body): string {
  const condition = body.condition ?? {};
  if (condition.type === 0) return 'all devices';
  if (condition.type === 2) {
    const ids = condition.client_ids ?? [];
    const first = ids.slice(0, 3).join(', ');
    return `${ids.length} client ID${ids.length === 1 ? '' : 's'}: ${first}${ids.length > 3 ? ', …' : ''}`;
  }
  if (condition.type === 1) {
    const criteria = Object.entries(condition.targeting ?? {})
      .filter(([, values]) => Array.isArray(values) && values.length > 0)
      .map(([key, values]) => `${key.replace('_', ' ')} ${values!.join(' or ')}`);
    return criteria.length > 0 ? `devices with ${criteria.join(', and ')}` : 'targeting with no criteria';
  }
  return 'no audience';
}

function clickAction(notification: Record<string, unknown>): string {
  const type = str(notification.open_type);
  const content = str(notification.open_content);
  if (type === '2') return `opens ${content}`;
  if (type === '1' && content) return `opens activity ${content}`;
  return 'opens the app';
}

/** The notification as Android draws it: system style, or button style. */
function phone(entry: Entry, notification: Record<string, unknown>): HTMLElement {
  const button = notification.notification_type === 3;
  const color = /^#[0-9a-f]{6}$/i.test(str(notification.small_icon_color)) ? str(notification.small_icon_color) : '#5f6368';
  const time = new Date(entry.received_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const smallIcon = el('span', 'small-icon');
  smallIcon.style.background = color;
  smallIcon.title = `small_icon ${str(notification.small_icon) || '(default)'} tinted ${color}`;
  smallIcon.dataset.color = color;
  const head = el('div', 'n-head', smallIcon, el('span', 'n-app', entry.app_id), el('span', 'n-dot', '·'), el('span', 'n-time', time));
  const text = el('div', 'n-text', el('div', 'n-title', str(notification.title)), el('div', 'n-desc', str(notification.desc)));
  const card = el('div', `notification ${button ? 'button-style' : 'system-style'}`, head);
  if (button) {
    // The icon is a remote URL: the page fetches nothing from elsewhere, so it shows where the icon would be.
    const icon = el('div', 'n-icon', 'icon');
    icon.title = `icon ${str(notification.icon) || '(none)'}`;
    card.append(el('div', 'n-body', icon, text), el('div', 'n-actions', el('span', 'n-button', str(notification.button_text) || 'Open')));
  } else {
    card.append(text);
  }
  card.append(el('div', 'n-click', `on tap: ${clickAction(notification)}`));
  return card;
}

function dataTable(data: Record<string, unknown>): HTMLElement {
  const size = new TextEncoder().encode(JSON.stringify(data)).length;
  const rows = Object.entries(data).map(([key, value]) => el('tr', '', el('th', '', key), el('td', '', str(value))));
  return el('div', 'data', el('table', 'kv', ...rows), el('div', `size${size > 2048 ? ' over' : ''}`, `${size} B of 2 KB`));
}

function copyButton(text: string): HTMLElement {
  const button = el('button', 'copy', 'copy') as HTMLButtonElement;
  button.type = 'button';
  button.addEventListener('click', () => {
    void navigator.clipboard?.writeText(text).then(() => (button.textContent = 'copied'), () => (button.textContent = 'select and copy'));
  });
  return button;
}

function card(entry: Entry): HTMLElement {
  const body = entry.body ?? {};
  const kind = body.type === 2 ? 'data' : body.type === 1 ? 'notification' : 'unknown';
  const badge = el('span', `badge ${entry.outcome}`, OUTCOME_LABEL[entry.outcome]);
  const meta = el(
    'div',
    'meta',
    badge,
    el('span', 'app', entry.app_id || '(no app)'),
    el('span', 'kind', kind),
    el('time', '', new Date(entry.received_at).toLocaleString()),
    entry.message_id ? el('code', 'mid', entry.message_id) : '',
  );
  const main = el('div', 'main');
  if (entry.outcome === 'rejected' || (entry.outcome === 'chaos' && entry.chaos)) {
    const what = entry.outcome === 'chaos' ? `${entry.chaos!.fault}: ${entry.meaning}` : `${entry.status} ${entry.meaning}`;
    const reasons = (entry.errors ?? []).map((e) => el('li', '', el('code', '', e.path || '(body)'), ` ${e.message}`));
    main.append(el('div', `verdict ${entry.outcome}`, el('strong', 'code', what), reasons.length > 0 ? el('ul', 'reasons', ...reasons) : ''));
  }
  if (body.notification && typeof body.notification === 'object') main.append(phone(entry, body.notification));
  if (body.data && typeof body.data === 'object') main.append(dataTable(body.data));
  const facts = el('dl', 'facts');
  const fact = (name: string, value: string) => facts.append(el('dt', '', name), el('dd', '', value));
  if (body.condition) fact('audience', audience(body));
  if (entry.reached !== undefined) fact('reached', `${entry.reached.toLocaleString()} of ${entry.fleet_size?.toLocaleString()} simulated devices${entry.unknown_client_ids ? `; ${entry.unknown_client_ids} client ID${entry.unknown_client_ids === 1 ? '' : 's'} unknown to the fleet` : ''}`);
  if (typeof body.time_to_live === 'number') fact('TTL', humanDuration(body.time_to_live));
  if (entry.warnings && entry.warnings.length > 0) fact('no effect', entry.warnings.map((w) => `${w.path}: ${w.message}`).join('; '));
  main.append(facts);
  const json = entry.body ? JSON.stringify(entry.body, null, 2) : (entry.body_text ?? '');
  const details = el('details', 'json', el('summary', '', 'JSON'), copyButton(json), el('pre', '', json));
  const article = el('article', `entry ${entry.outcome}`, meta, main, details);
  article.dataset.seq = String(entry.seq);
  return article;
}

// ---------------------------------------------------------------------------------------------------------

const list = $('#entries');
const filters = { app: $<HTMLSelectElement>('#app'), kind: $<HTMLSelectElement>('#kind'), outcome: $<HTMLSelectElement>('#outcome'), q: $<HTMLInputElement>('#q') };
const apps = new Set<string>();

function query(): URLSearchParams {
  const params = new URLSearchParams({ limit: '200' });
  for (const [name, input] of Object.entries(filters)) if (input.value) params.set(name, input.value);
  return params;
}

function noteApp(app: string): void {
  if (!app || apps.has(app)) return;
  apps.add(app);
  const option = el('option', '', app) as HTMLOptionElement;
  option.value = app;
  filters.app.append(option);
}

function showEmpty(): void {
  $('#empty').hidden = list.children.length > 0;
}

let loading = 0;
async function load(): Promise<void> {
  const mine = ++loading;
  const answer = (await (await fetch(`/v1/emulator/requests?${query()}`)).json()) as { entries: Entry[]; total: number };
  if (mine !== loading) return;
  list.replaceChildren(...answer.entries.map(card));
  for (const entry of answer.entries) noteApp(entry.app_id);
  $('#count').textContent = `${answer.total} request${answer.total === 1 ? '' : 's'}`;
  showEmpty();
}

/** Whether a live entry passes the filters in force (the server applies the same rules when loading). */
function passes(entry: Entry): boolean {
  const kind = entry.body?.type === 2 ? 'data' : entry.body?.type === 1 ? 'notification' : '';
  const text = filters.q.value.trim().toLowerCase();
  return (
    (!filters.app.value || entry.app_id === filters.app.value) &&
    (!filters.outcome.value || entry.outcome === filters.outcome.value) &&
    (!filters.kind.value || kind === filters.kind.value) &&
    (!text || [entry.message_id, entry.app_id, entry.meaning, entry.body_text, JSON.stringify(entry.body ?? '')].join('\n').toLowerCase().includes(text))
  );
}

function connect(): void {
  const events = new EventSource('/v1/emulator/events');
  const status = $('#live');
  events.addEventListener('open', () => ((status.textContent = 'live'), (status.className = 'live on')));
  events.addEventListener('error', () => ((status.textContent = 'reconnecting…'), (status.className = 'live off')));
  events.addEventListener('request', (event) => {
    const entry = JSON.parse((event as MessageEvent<string>).data) as Entry;
    noteApp(entry.app_id);
    if (passes(entry)) list.prepend(card(entry));
    const count = $('#count');
    count.textContent = `${Number.parseInt(count.textContent ?? '0', 10) + 1} requests`;
    showEmpty();
    void loadDevices();
  });
  events.addEventListener('cleared', () => void load());
}

async function loadDevices(): Promise<void> {
  const panel = $('#devices');
  const answer = await fetch(`/v1/emulator/devices?limit=100&q=${encodeURIComponent($<HTMLInputElement>('#device-q').value)}`);
  if (answer.status === 404) return;
  panel.hidden = false;
  const { devices, total } = (await answer.json()) as { devices: (Record<string, string> & { client_id: string; inbox: number })[]; total: number };
  $('#device-count').textContent = `${total.toLocaleString()} simulated devices`;
  $('#device-list').replaceChildren(
    ...devices.map((d) => {
      const row = el('li', '', el('code', '', d.client_id), ` ${d.country} ${d.language} · ${d.brand} ${d.model} · Android API ${d.os_version} · app ${d.app_version}`, el('span', 'inbox-count', `${d.inbox}`));
      row.addEventListener('click', () => void openDevice(d.client_id));
      return row;
    }),
  );
}

async function openDevice(clientId: string): Promise<void> {
  const answer = (await (await fetch(`/v1/emulator/devices/${encodeURIComponent(clientId)}`)).json()) as { inbox: { message_id: string; app_id: string; received_at: string; title?: string; desc?: string; type: number }[] };
  const items = answer.inbox.map((m) => el('li', '', el('strong', '', m.title ?? (m.type === 2 ? 'data message' : '')), ` ${m.desc ?? ''} `, el('code', '', m.message_id)));
  $('#device-inbox').replaceChildren(el('h3', '', `Inbox of ${clientId}`), items.length > 0 ? el('ol', '', ...items) : el('p', '', 'nothing received yet'));
}

function theme(next?: string): void {
  const chosen: string = next ?? localStorage.getItem('pushctl-theme') ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = chosen;
  localStorage.setItem('pushctl-theme', chosen);
}

theme();
$('#theme').addEventListener('click', () => theme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark'));
$('#clear').addEventListener('click', () => void fetch('/v1/emulator/messages', { method: 'DELETE' }));
for (const input of Object.values(filters)) input.addEventListener('input', () => void load());
$('#device-q').addEventListener('input', () => void loadDevices());
void load().then(connect);
void loadDevices();
