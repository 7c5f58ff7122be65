// The devices of `pushctl serve --devices <file>`: a JSON array (or `{"devices": [...]}`), or CSV with a
// header (RFC 4180, read by csv-parse: quoted fields, quoted commas and quotes, CRLF). Values are checked
// by the message's own rules (check-devices.ts), so a device can be reached by the messages that name it.
import { parseJson } from '../../message/parse-json.js';
import { csvRecords } from '../../message/csv-records.js';
import { checkDevices, DEVICE_FIELDS, DevicesFileError, toDevice, uniqueDevices } from './check-devices.js';
import type { Device } from './match.js';

export { DEVICE_FIELDS, DevicesFileError } from './check-devices.js';

/** Parses a devices file's text: JSON when it starts with `[` or `{`, else CSV. */
export function parseDevices(text: string): Device[] {
  const body = text.replace(/^\uFEFF/, '');
  return /^\s*[[{]/.test(body) ? parseJsonDevices(body) : parseCsvDevices(body);
}

function parseJsonDevices(text: string): Device[] {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (error) {
    throw new DevicesFileError(`not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(json) ? json : (json as { devices?: unknown } | null)?.devices;
  if (!Array.isArray(list)) throw new DevicesFileError('a JSON devices file is an array of devices or {"devices": [...]}');
  return checkDevices(list);
}

function parseCsvDevices(text: string): Device[] {
  const [header, ...records] = csvRecords(text, false, (line, reason) => new DevicesFileError(`line ${line ?? '?'}: not valid CSV (${reason})`));
  if (header?.record.map((h) => h.trim()).join(',') !== DEVICE_FIELDS.join(',')) {
    throw new DevicesFileError(`line 1: a CSV devices file starts with the header ${DEVICE_FIELDS.join(',')}`);
  }
  return uniqueDevices(
    records.map(({ record, info }) => {
      const where = `line ${info.lines}`;
      if (record.length !== DEVICE_FIELDS.length) throw new DevicesFileError(`${where}: ${record.length} fields, expected ${DEVICE_FIELDS.length} (${DEVICE_FIELDS.join(',')})`);
      return { device: toDevice(Object.fromEntries(DEVICE_FIELDS.map((field, k) => [field, record[k]])), where), where };
    }),
  );
}
