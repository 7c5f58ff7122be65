// The devices of `pushctl serve --devices <file>`: a JSON array (or `{"devices": [...]}`), or CSV with a
// header (RFC 4180, read by csv-parse: quoted fields, quoted commas and quotes, CRLF). Values are checked
// by the message's own rules (check-devices.ts), so a device can be reached by the messages that name it.
import { parseJson } from '../../message/parse-json.js';
import { csvRecords } from '../../message/csv-records.js';
import { checkDevices, DEVICE_FIELDS, DevicesFileError, toDevice, uniqueDevices, unknownField } from './check-devices.js';
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

/**
 * CSV whose header names its columns, as a JSON device's keys do: in any order, and a column left out is
 * unknown for every device (a spreadsheet's export; the client_id,language CSV that `send --client-ids-file`
 * takes). A name that is not a field is refused, so a typo never leaves a column unread.
 */
function parseCsvDevices(text: string): Device[] {
  const [header, ...records] = csvRecords(text, false, (line, reason) => new DevicesFileError(`line ${line ?? '?'}: not valid CSV (${reason})`));
  const columns = columnsOf(header?.record ?? []);
  return uniqueDevices(
    records.map(({ record, info }) => {
      const where = `line ${info.lines}`;
      if (record.length !== columns.length) throw new DevicesFileError(`${where}: ${record.length} fields, expected ${columns.length} (${columns.join(',')})`);
      return { device: toDevice(Object.fromEntries(columns.map((field, k) => [field, record[k]])), where), where };
    }),
  );
}

/** The fields the header's names stand for, in its order: each a field of a device (in any case), once, client_id among them. */
function columnsOf(names: readonly string[]): string[] {
  const columns = names.map((name) => name.trim().toLowerCase());
  if (!columns.includes('client_id')) throw new DevicesFileError('line 1: the header has no client_id column');
  const fields: readonly string[] = DEVICE_FIELDS;
  columns.forEach((column, i) => {
    if (!fields.includes(column)) throw unknownField('line 1', 'column', names[i]!.trim());
    if (columns.indexOf(column) !== i) throw new DevicesFileError(`line 1: column "${column}" appears twice`);
  });
  return columns;
}
