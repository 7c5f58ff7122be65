// The devices of `pushctl serve --devices <file>` (a JSON array, or CSV with a header) and `--fleet <N>`.
import { seededRandom } from '../chaos.js';
import type { Device } from './match.js';

export const DEVICE_FIELDS = ['client_id', 'country', 'language', 'brand', 'model', 'os_version', 'app_version'] as const;

export class DevicesFileError extends Error {}

/** Parses a devices file's text: JSON (an array of objects) when it starts with `[`, else CSV. */
export function parseDevices(text: string): Device[] {
  const body = text.replace(/^\uFEFF/, '');
  const devices = body.trimStart().startsWith('[') ? parseJsonDevices(body) : parseCsvDevices(body);
  const seen = new Set<string>();
  devices.forEach((device, i) => {
    if (seen.has(device.client_id)) throw new DevicesFileError(`device ${i + 1}: client_id "${device.client_id}" appears twice`);
    seen.add(device.client_id);
  });
  return devices;
}

function parseJsonDevices(text: string): Device[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DevicesFileError(`not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(json)) throw new DevicesFileError('a JSON devices file is an array of device objects');
  return json.map((value, i) => toDevice(value as Record<string, unknown>, `device ${i + 1}`));
}

function parseCsvDevices(text: string): Device[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  if (header.join(',') !== DEVICE_FIELDS.join(',')) {
    throw new DevicesFileError(`line 1: a CSV devices file starts with the header ${DEVICE_FIELDS.join(',')}`);
  }
  const devices: Device[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = line.split(',');
    if (cells.length !== DEVICE_FIELDS.length) throw new DevicesFileError(`line ${i + 2}: ${cells.length} fields, expected ${DEVICE_FIELDS.length} (${DEVICE_FIELDS.join(',')})`);
    devices.push(toDevice(Object.fromEntries(DEVICE_FIELDS.map((field, k) => [field, cells[k]!.trim()])), `line ${i + 2}`));
  });
  return devices;
}

function toDevice(value: Record<string, unknown>, where: string): Device {
  if (typeof value !== 'object' || value === null) throw new DevicesFileError(`${where}: a device is an object with ${DEVICE_FIELDS.join(', ')}`);
  const device = {} as Record<string, string>;
  for (const field of DEVICE_FIELDS) {
    const raw = value[field];
    const text = typeof raw === 'number' ? String(raw) : raw;
    if (field === 'client_id' ? typeof text !== 'string' || text.trim() === '' : text !== undefined && typeof text !== 'string') {
      throw new DevicesFileError(`${where}: ${field} must be ${field === 'client_id' ? 'a non-empty string' : 'a string'}`);
    }
    device[field] = typeof text === 'string' ? text.trim() : '';
  }
  return device as unknown as Device;
}

/** Countries with the languages their devices speak, weighted roughly by audience size. */
const MARKETS: readonly (readonly [country: string, languages: readonly string[], weight: number])[] = [
  ['IN', ['en-IN', 'hi-IN', 'ta-IN'], 20],
  ['US', ['en-US', 'es-US'], 14],
  ['BR', ['pt-BR'], 8],
  ['ID', ['id-ID'], 7],
  ['CN', ['zh-CN'], 7],
  ['GB', ['en-GB'], 5],
  ['DE', ['de-DE'], 5],
  ['FR', ['fr-FR'], 4],
  ['MX', ['es-MX'], 4],
  ['JP', ['ja-JP'], 4],
  ['RU', ['ru-RU'], 4],
  ['TR', ['tr-TR'], 3],
  ['NG', ['en-NG'], 3],
  ['VN', ['vi-VN'], 3],
  ['ES', ['es-ES', 'ca-ES'], 3],
  ['PH', ['en-PH', 'fil-PH'], 3],
  ['TW', ['zh-TW'], 2],
  ['CA', ['en-CA', 'fr-CA'], 1],
];
const PHONES: readonly (readonly [brand: string, models: readonly string[], weight: number])[] = [
  ['Samsung', ['SM-A546B', 'SM-S918B', 'SM-A145F', 'SM-G991B'], 30],
  ['Xiaomi', ['Redmi Note 12', '2201117TG', 'POCO X5'], 20],
  ['OPPO', ['CPH2591', 'CPH2477'], 10],
  ['vivo', ['V2207', 'V2250'], 10],
  ['Google', ['Pixel 7', 'Pixel 8 Pro'], 8],
  ['HUAWEI', ['ELS-NX9', 'NOH-NX9'], 7],
  ['OnePlus', ['CPH2449', 'LE2123'], 6],
  ['realme', ['RMX3630', 'RMX3771'], 6],
  ['Motorola', ['moto g54 5G', 'edge 40'], 3],
];
const OS_LEVELS: readonly (readonly [level: string, weight: number])[] = [['34', 25], ['33', 30], ['32', 10], ['31', 15], ['30', 12], ['29', 8]];
const APP_VERSIONS: readonly (readonly [version: string, weight: number])[] = [['3.2.0', 40], ['3.1.4', 30], ['3.1.0', 15], ['3.0.2', 10], ['2.9.9', 5]];

function weighted<T>(random: () => number, items: readonly (readonly [...unknown[], number])[]): T {
  const total = items.reduce((sum, item) => sum + (item[item.length - 1] as number), 0);
  let draw = random() * total;
  for (const item of items) {
    draw -= item[item.length - 1] as number;
    if (draw < 0) return item as unknown as T;
  }
  return items[items.length - 1] as unknown as T;
}

/** `count` plausible devices, the same for the same seed: `device-000001`, … */
export function syntheticFleet(count: number, seed = 1): Device[] {
  const random = seededRandom(seed);
  const width = Math.max(6, String(count).length);
  const devices: Device[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const [country, languages] = weighted<(typeof MARKETS)[number]>(random, MARKETS);
    const [brand, models] = weighted<(typeof PHONES)[number]>(random, PHONES);
    devices[i] = {
      client_id: `device-${String(i + 1).padStart(width, '0')}`,
      country,
      language: languages[Math.floor(random() * languages.length)]!,
      brand,
      model: models[Math.floor(random() * models.length)]!,
      os_version: weighted<(typeof OS_LEVELS)[number]>(random, OS_LEVELS)[0],
      app_version: weighted<(typeof APP_VERSIONS)[number]>(random, APP_VERSIONS)[0],
    };
  }
  return devices;
}
