// The normalisations of docs/behaviour.md#validation, applied before the rules are checked. Each one is listed as a
// note so `pushctl validate` can show what changed. Input is arbitrary JSON: anything unexpected is left
// as it is for the schema to reject with a precise message, so this never throws.
import type { MessageIssue } from './types.js';
import { setOwn } from './own-key.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Converts a number or boolean to its string form; other values are returned unchanged. */
const scalarToString = (v: unknown): unknown => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' ? String(v) : v;

export interface Normalized {
  value: unknown;
  notes: MessageIssue[];
}

export function normalizeMessage(input: unknown): Normalized {
  const notes: MessageIssue[] = [];
  if (!isObject(input)) return { value: input, notes };
  const note = (path: string, rule: string, message: string) => notes.push({ path, rule, message });

  // `$schema` lets editors check message files; it is not part of the request.
  const { $schema: _schema, ...body } = input;

  if (typeof body.notification === 'object' && isObject(body.notification)) {
    const n = { ...body.notification };
    if (typeof n.open_type === 'number' && (n.open_type === 1 || n.open_type === 2)) {
      note('notification.open_type', 'string', `converted the number ${n.open_type} to the string "${n.open_type}"`);
      n.open_type = String(n.open_type);
    }
    body.notification = n;
  }

  if (isObject(body.data)) {
    const data: Json = {};
    for (const [key, value] of Object.entries(body.data)) {
      const converted = scalarToString(value);
      if (converted !== value) note(`data.${key}`, 'string', `converted ${JSON.stringify(value)} to the string "${String(converted)}"`);
      setOwn(data, key, converted);
    }
    body.data = data;
  }

  if (isObject(body.condition)) {
    const condition = { ...body.condition };
    if (Array.isArray(condition.client_ids)) condition.client_ids = normalizeClientIds(condition.client_ids, note);
    if (isObject(condition.targeting)) condition.targeting = normalizeTargeting(condition.targeting, note);
    body.condition = condition;
  }

  return { value: body, notes };
}

function normalizeClientIds(ids: unknown[], note: (path: string, rule: string, message: string) => void): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  let trimmed = 0;
  for (const id of ids) {
    if (typeof id !== 'string') {
      out.push(id);
      continue;
    }
    const t = id.trim();
    if (t !== id) trimmed++;
    // An empty ID is kept so the schema can report it at its position.
    if (t.length > 0 && seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  if (trimmed > 0) note('condition.client_ids', 'trim', `trimmed surrounding whitespace from ${trimmed} client ID${trimmed === 1 ? '' : 's'}`);
  const removed = ids.length - out.length;
  if (removed > 0) note('condition.client_ids', 'dedupe', `removed ${removed} duplicate client ID${removed === 1 ? '' : 's'}`);
  return out;
}

function normalizeTargeting(targeting: Json, note: (path: string, rule: string, message: string) => void): Json {
  const t = { ...targeting };
  const mapList = (key: string, rule: string, describe: string, f: (s: string) => string) => {
    const list = t[key];
    if (!Array.isArray(list)) return;
    // Each value is noted at its own path (`condition.targeting.country[0]: gb → GB`): targeting lists are
    // short, and the user should see exactly what will be sent.
    t[key] = list.map((item, index) => {
      if (typeof item !== 'string') return item;
      const out = f(item);
      if (out !== item) note(`condition.targeting.${key}[${index}]`, rule, `${JSON.stringify(item)} → ${JSON.stringify(out)} (${describe})`);
      return out;
    });
  };
  mapList('country', 'upper-case', 'country codes are upper case', (s) => s.trim().toUpperCase());
  mapList('language', 'trim', 'trimmed', (s) => s.trim());
  mapList('brand', 'brand', 'brands are upper case without spaces', (s) => s.toUpperCase().replace(/\s+/g, ''));
  mapList('model', 'model', 'models are upper case without spaces', (s) => s.toUpperCase().replace(/\s+/g, ''));
  mapList('app_version', 'trim', 'trimmed', (s) => s.trim());
  if (Array.isArray(t.os_version)) {
    const list = t.os_version;
    t.os_version = list.map((v, index) => {
      if (typeof v === 'number' && Number.isInteger(v)) {
        note(`condition.targeting.os_version[${index}]`, 'string', `${v} → "${v}" (os_version is a string)`);
        return String(v);
      }
      return typeof v === 'string' ? v.trim() : v;
    });
  }
  return t;
}
