// The devices of `pushctl serve --devices <file>`: a JSON array (or `{"devices": [...]}`), or CSV with a
// header (RFC 4180, read by csv-parse: quoted fields, quoted commas and quotes, CRLF). Values are checked
// by the message's own rules, so a device can be reached by the messages that name it.
import { parseJson } from '../../message/parse-json.js';
import { csvRecords } from '../../message/csv-records.js';
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { countryCode, LANGUAGE, languageCode, languageTagOf, osVersion } from '../../message/schema.js';
import type { Device } from './match.js';

export const DEVICE_FIELDS = ['client_id', 'country', 'language', 'brand', 'model', 'os_version', 'app_version'] as const;

export class DevicesFileError extends Error {}

/** Fields checked as the same field of a message's targeting is; empty means unknown and is allowed. */
const CHECKED: Partial<Record<(typeof DEVICE_FIELDS)[number], z.ZodMiniType<string>>> = { country: countryCode, language: languageCode, os_version: osVersion };

/** Parses a devices file's text: JSON when it starts with `[` or `{`, else CSV. */
export function parseDevices(text: string): Device[] {
  const body = text.replace(/^\uFEFF/, '');
  const json = /^\s*[[{]/.test(body);
  const located = json ? parseJsonDevices(body) : parseCsvDevices(body);
  const seen = new Set<string>();
  return located.map(({ device, where }) => {
    if (seen.has(device.client_id)) throw new DevicesFileError(`${where}: client_id "${device.client_id}" appears twice`);
    seen.add(device.client_id);
    return device;
  });
}

interface Located {
  device: Device;
  where: string;
}

function parseJsonDevices(text: string): Located[] {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (error) {
    throw new DevicesFileError(`not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(json) ? json : (json as { devices?: unknown } | null)?.devices;
  if (!Array.isArray(list)) throw new DevicesFileError('a JSON devices file is an array of devices or {"devices": [...]}');
  return list.map((value: unknown, i) => {
    const where = `device ${i + 1}`;
    return { device: toDevice(value, where), where };
  });
}

function parseCsvDevices(text: string): Located[] {
  const [header, ...records] = csvRecords(text, false, (line, reason) => new DevicesFileError(`line ${line ?? '?'}: not valid CSV (${reason})`));
  if (header?.record.map((h) => h.trim()).join(',') !== DEVICE_FIELDS.join(',')) {
    throw new DevicesFileError(`line 1: a CSV devices file starts with the header ${DEVICE_FIELDS.join(',')}`);
  }
  return records.map(({ record, info }) => {
    const where = `line ${info.lines}`;
    if (record.length !== DEVICE_FIELDS.length) throw new DevicesFileError(`${where}: ${record.length} fields, expected ${DEVICE_FIELDS.length} (${DEVICE_FIELDS.join(',')})`);
    return { device: toDevice(Object.fromEntries(DEVICE_FIELDS.map((field, k) => [field, record[k]])), where), where };
  });
}

type DeviceField = (typeof DEVICE_FIELDS)[number];

function toDevice(value: unknown, where: string): Device {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DevicesFileError(`${where}: a device is an object with ${DEVICE_FIELDS.join(', ')}`);
  // In the order of DEVICE_FIELDS, so the first bad field is the one named.
  const field = (name: DeviceField) => deviceField((value as Record<string, unknown>)[name], name, where);
  return { client_id: field('client_id'), country: field('country'), language: field('language'), brand: field('brand'), model: field('model'), os_version: field('os_version'), app_version: field('app_version') };
}

/**
 * A device's language as a message's targeting writes it, where it reads as one: a device list exported from
 * Android writes `pt_BR`, and the same CSV serves `send --client-ids-file` (docs/behaviour.md#variants). What
 * does not read as a tag stays as written, so the error names it.
 */
function deviceLanguage(text: string): string {
  const tag = languageTagOf(text);
  return LANGUAGE.test(tag) ? tag : text;
}

/** One field of a device, checked and trimmed (a country upper case and a language a tag, as in a message). */
function deviceField(raw: unknown, field: DeviceField, where: string): string {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (field === 'client_id' ? typeof text !== 'string' || text.trim() === '' : text !== undefined && typeof text !== 'string') {
    throw new DevicesFileError(`${where}: ${field} must be ${field === 'client_id' ? 'a non-empty string' : 'a string'}`);
  }
  const trimmed = typeof text === 'string' ? text.trim() : '';
  const kept = field === 'country' ? trimmed.toUpperCase() : field === 'language' ? deviceLanguage(trimmed) : trimmed;
  const schema = CHECKED[field];
  const result = schema && trimmed !== '' ? z.safeParse(schema, kept) : undefined;
  if (result && !result.success) {
    const issue = result.error.issues[0]!;
    const fix = (issue as { params?: { fix?: string } }).params?.fix;
    throw new DevicesFileError(`${where}: ${field} ${issue.message}${fix ? `; ${fix}` : ''}`);
  }
  return kept;
}
