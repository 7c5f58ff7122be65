/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// One answered push request as the inbox lists it: verdict, phone preview or data table, the facts
// (audience, reach, TTL, warnings under their own labels), and the exact JSON with a copy button.
import type { RequestLogEntry } from '../request-log.js';
import { button, copyButton, el, num, plural } from './dom.js';
import { escapeInvisibleInJson, showInvisible } from './invisible-characters.js';
import { dataTable, phone } from './phone.js';
import { hashOfMessage } from './url-state.js';

/** Dispatched on the document with an entry's JSON: the compose panel opens it to edit and send again. */
export const EDIT_EVENT = 'pushctl-edit-in-compose';

/** An entry's own actions: open its message in compose, and delete it (from every open page). */
function entryActions(entry: Entry, json: string): HTMLElement {
  const actions = el('div', 'entry-actions');
  if (entry.body) actions.append(button('edit in compose', () => document.dispatchEvent(new CustomEvent(EDIT_EVENT, { detail: json })), 'edit'));
  actions.append(button('delete', () => void fetch(`/v1/emulator/requests/${entry.seq}`, { method: 'DELETE' }), 'delete'));
  return actions;
}

/** A request-log entry as the API sends it, with the body's shape the page reads. */
export type Entry = Omit<RequestLogEntry, 'body'> & { body?: Body; would_reach?: number };

export interface Body {
  type?: number;
  time_to_live?: number;
  dry_run?: boolean;
  condition?: { type?: number; client_ids?: string[]; targeting?: Record<string, string[] | undefined> };
  notification?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

const OUTCOME_LABEL: Record<Entry['outcome'], string> = {
  accepted: 'delivered',
  dry_run: 'dry run — not delivered',
  rejected: 'rejected',
  chaos: 'chaos',
};

/** Warnings are grouped by what they say; "no effect" is only one of them. */
const WARNING_LABEL: Record<string, string> = {
  'no-effect': 'no effect',
  'button-style': 'button style',
  'long-ttl': 'long TTL',
  // The CLI's warning that a title or text is longer than a phone's notification shade shows.
  'display-length': 'cut on a phone',
};

/** `3600` → `1 hour`, `90` → `1 min 30 s`. */
export function humanDuration(seconds: number): string {
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
    return `${plural(ids.length, 'client ID')}: ${first}${ids.length > 3 ? ', …' : ''}`;
  }
  if (condition.type === 1) {
    const criteria = Object.entries(condition.targeting ?? {})
      .filter(([, values]) => Array.isArray(values) && values.length > 0)
      .map(([key, values]) => `${key.replace('_', ' ')} ${values!.join(' or ')}`);
    return criteria.length > 0 ? `devices with ${criteria.join(', and ')}` : 'targeting with no criteria';
  }
  return 'no audience';
}

function reach(entry: Entry): string | undefined {
  const unknown = entry.unknown_client_ids ? `; ${plural(entry.unknown_client_ids, 'client ID')} unknown to the fleet` : '';
  const of = `of ${num(entry.fleet_size ?? 0)} simulated devices${unknown}`;
  if (entry.reached !== undefined) return `${num(entry.reached)} ${of}`;
  if (entry.would_reach !== undefined) return `${num(entry.would_reach)} ${of} (a dry run reaches no one)`;
  return undefined;
}

/**
 * Why a request with no reasons by JSON path was refused (a wrong secret, a body that is not JSON, too many
 * client IDs): the service's text, without the meaning the code already says.
 */
function refusal(entry: Entry): HTMLElement | false {
  const text = entry.message?.startsWith(`${entry.meaning}: `) ? entry.message.slice(entry.meaning.length + 2) : entry.message;
  return Boolean(text) && el('p', 'refusal', text!);
}

export function card(entry: Entry, open = false): HTMLElement {
  const body = entry.body ?? {};
  const kind = body.type === 2 ? 'data' : body.type === 1 ? 'notification' : 'unknown';
  const permalink = entry.message_id ? el('a', 'mid', el('code', '', entry.message_id)) : '';
  if (permalink) {
    permalink.href = hashOfMessage(entry.message_id!);
    permalink.title = 'permalink to this message';
  }
  // The message's language (docs/behaviour.md#variants): which variant of an announcement this entry is.
  const language = entry.languages?.length ? el('span', 'language', entry.languages.join(', ')) : '';
  if (language) language.title = 'the language of this message: its targeting\'s, or that of the simulated devices it listed';
  const meta = el('div', 'meta', el('span', `badge ${entry.outcome}`, OUTCOME_LABEL[entry.outcome]), el('span', 'app', entry.app_id || '(no app)'), language, el('span', 'kind', kind), el('time', '', new Date(entry.received_at).toLocaleString()), permalink);
  const main = el('div', 'main');
  if (entry.outcome === 'rejected' || (entry.outcome === 'chaos' && entry.chaos)) {
    const what = entry.outcome === 'chaos' ? `${entry.chaos!.fault}: ${entry.meaning}` : `${entry.status} ${entry.meaning}`;
    const reasons = (entry.errors ?? []).map((e) => el('li', '', el('code', '', e.path || '(body)'), ` ${e.message}`));
    main.append(el('div', `verdict ${entry.outcome}`, el('strong', 'code', what), reasons.length > 0 ? el('ul', 'reasons', ...reasons) : refusal(entry)));
  }
  if (body.notification && typeof body.notification === 'object') main.append(phone(entry.app_id, new Date(entry.received_at), body.notification));
  if (body.data && typeof body.data === 'object') main.append(dataTable(body.data));
  const facts = el('dl', 'facts');
  const fact = (name: string, value: string, className = '') => facts.append(el('dt', className, name), el('dd', className, value));
  if (entry.languages?.length) fact('language', entry.languages.join(', '));
  fact('target', `app ${entry.app_id || '(no app)'} at ${location.host}`);
  if (body.condition) fact('audience', audience(body));
  const reached = reach(entry);
  if (reached) fact(entry.reached !== undefined ? 'reached' : 'would reach', reached);
  if (typeof body.time_to_live === 'number') fact('TTL', humanDuration(body.time_to_live));
  const groups = new Map<string, string[]>();
  for (const w of entry.warnings ?? []) {
    const label = WARNING_LABEL[w.rule] ?? (w.rule ? w.rule.replace(/-/g, ' ') : 'warning');
    groups.set(label, [...(groups.get(label) ?? []), `${w.path}: ${w.message}`]);
  }
  for (const [label, lines] of groups) fact(label, lines.join('; '), 'warning');
  main.append(facts);
  // Shown with invisible characters marked; copied with them escaped, so the copy parses to the same value.
  const json = entry.body ? JSON.stringify(entry.body, null, 2) : (entry.body_text ?? '');
  const details = el('details', 'json', el('summary', '', 'JSON'), copyButton('copy', () => escapeInvisibleInJson(json)), el('pre', '', json));
  details.open = open;
  const article = el('article', `entry ${entry.outcome}`, meta, main, details, entryActions(entry, json));
  article.dataset.seq = String(entry.seq);
  if (entry.message_id) article.dataset.messageId = showInvisible(entry.message_id);
  return article;
}
