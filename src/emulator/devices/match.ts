// Whom a message reaches among simulated devices: the emulator's reading of the rules (docs/behaviour.md#devices).
// Pure: a device and a condition in, yes or no out.
import type { PushMessage } from '../../message/types.js';

export interface Device {
  client_id: string;
  country: string;
  language: string;
  brand: string;
  model: string;
  os_version: string;
  app_version: string;
}

type Condition = PushMessage['condition'];
type Targeting = NonNullable<Condition['targeting']>;

/** `en_us` → `en-US`-insensitive form: lower case, `_` as `-`. */
const languageTag = (value: string) => value.trim().toLowerCase().replace(/_/g, '-');
/** Brand and model compare upper-cased with spaces removed, on both sides. */
const squash = (value: string) => value.toUpperCase().replace(/\s+/g, '');
const wholeNumber = (value: string) => (/^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN);

/** An empty or absent list restricts nothing; otherwise one entry must match. */
function anyMatches(entries: readonly string[] | undefined, test: (entry: string) => boolean): boolean {
  return entries === undefined || entries.length === 0 || entries.some(test);
}

/**
 * A language entry reaches a device when the tags are equal, or when the entry is a bare language and the
 * device speaks a region of it: `en` reaches `en-GB`; `en-GB` reaches neither `en-US` nor bare `en`.
 */
function languageMatches(entry: string, deviceLanguage: string): boolean {
  const want = languageTag(entry);
  const have = languageTag(deviceLanguage);
  return want === have || (!want.includes('-') && have.startsWith(`${want}-`));
}

export function matchesTargeting(device: Device, targeting: Targeting): boolean {
  const t = targeting as Partial<Record<'country' | 'language' | 'brand' | 'model' | 'os_version' | 'app_version', string[]>>;
  return (
    anyMatches(t.country, (c) => c.trim().toUpperCase() === device.country.trim().toUpperCase()) &&
    anyMatches(t.language, (l) => languageMatches(l, device.language)) &&
    anyMatches(t.brand, (b) => squash(b) === squash(device.brand)) &&
    anyMatches(t.model, (m) => squash(m) === squash(device.model)) &&
    anyMatches(t.os_version, (v) => wholeNumber(v) === wholeNumber(device.os_version)) &&
    anyMatches(t.app_version, (v) => v === device.app_version)
  );
}

/** Whether a message with this condition reaches the device. TTL and device availability are not modelled. */
export function reaches(device: Device, condition: Condition): boolean {
  switch (condition.type) {
    case 0:
      return true;
    case 1:
      return matchesTargeting(device, condition.targeting ?? {});
    case 2:
      return (condition.client_ids ?? []).includes(device.client_id);
    default:
      return false;
  }
}
