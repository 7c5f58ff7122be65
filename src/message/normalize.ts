// The normalisations of SPEC section 3, applied before the rules are checked. Each one is listed as a
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
    let changed = 0;
    t[key] = list.map((item) => {
      if (typeof item !== 'string') return item;
      const out = f(item);
      if (out !== item) changed++;
      return out;
    });
    if (changed > 0) note(`condition.targeting.${key}`, rule, `${describe} (${changed} value${changed === 1 ? '' : 's'})`);
  };
  mapList('country', 'upper-case', 'upper-cased country codes', (s) => s.trim().toUpperCase());
  mapList('language', 'trim', 'trimmed language codes', (s) => s.trim());
  mapList('brand', 'brand', 'upper-cased brands and removed spaces', (s) => s.toUpperCase().replace(/\s+/g, ''));
  mapList('model', 'model', 'upper-cased models and removed spaces', (s) => s.toUpperCase().replace(/\s+/g, ''));
  mapList('app_version', 'trim', 'trimmed app versions', (s) => s.trim());
  if (Array.isArray(t.os_version)) {
    const list = t.os_version;
    let converted = 0;
    t.os_version = list.map((v) => {
      if (typeof v === 'number' && Number.isInteger(v)) {
        converted++;
        return String(v);
      }
      return typeof v === 'string' ? v.trim() : v;
    });
    if (converted > 0) note('condition.targeting.os_version', 'string', `converted ${converted} number${converted === 1 ? '' : 's'} to strings`);
  }
  return t;
}
