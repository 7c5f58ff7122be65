// A simulated device checked as a message's targeting would name it: a non-empty client ID, a country an ISO
// code (upper-cased), a language a tag, os_version a whole number; an empty value means unknown. Shared by the
// devices file (load-devices.ts) and a library caller's own list, without the CSV reader the file needs.
import { CliError, ExitCode } from '../../errors.js';
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { countryCode, LANGUAGE, languageCode, languageTagOf, osVersion } from '../../message/schema.js';
import type { Device } from './match.js';
import { nearest } from '../../suggest.js';

export const DEVICE_FIELDS = ['client_id', 'country', 'language', 'brand', 'model', 'os_version', 'app_version'] as const;

/** A devices file that cannot be read as devices: the CLI's error class (exit 6, the configuration's code), with the file's shape as the hint. */
export class DevicesFileError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.config, `a JSON array of devices, or CSV whose header names its columns: client_id and any of ${DEVICE_FIELDS.slice(1).join(',')}`);
    this.name = 'DevicesFileError';
  }
}

/** Fields checked as the same field of a message's targeting is; empty means unknown and is allowed. */
const CHECKED: Partial<Record<(typeof DEVICE_FIELDS)[number], z.ZodMiniType<string>>> = { country: countryCode, language: languageCode, os_version: osVersion };

export interface Located {
  device: Device;
  where: string;
}

/** Devices as given (objects with the fields of DEVICE_FIELDS), checked, each client ID once: for `fleetOf`. */
export function checkDevices(list: readonly unknown[]): Device[] {
  return uniqueDevices(list.map((value, i) => ({ device: toDevice(value, `device ${i + 1}`), where: `device ${i + 1}` })));
}

/** The devices, refused at the second device with a client ID already seen, named where it is. */
export function uniqueDevices(located: readonly Located[]): Device[] {
  const seen = new Set<string>();
  return located.map(({ device, where }) => {
    if (seen.has(device.client_id)) throw new DevicesFileError(`${where}: client_id "${device.client_id}" appears twice`);
    seen.add(device.client_id);
    return device;
  });
}

type DeviceField = (typeof DEVICE_FIELDS)[number];

/** A JSON key or a CSV column that is no field of a device: refused with the nearest, never left unread. */
export function unknownField(where: string, kind: 'key' | 'column', name: string): DevicesFileError {
  const near = nearest(name, DEVICE_FIELDS);
  return new DevicesFileError(`${where}: unknown ${kind} "${name}"${near ? ` (did you mean "${near}"?)` : ''}; the ${kind}s are ${DEVICE_FIELDS.join(', ')}`);
}

const FIELDS: ReadonlySet<string> = new Set(DEVICE_FIELDS);

export function toDevice(value: unknown, where: string): Device {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DevicesFileError(`${where}: a device is an object with ${DEVICE_FIELDS.join(', ')}`);
  const unknown = Object.keys(value).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw unknownField(where, 'key', unknown);
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
