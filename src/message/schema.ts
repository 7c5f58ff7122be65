// THE rules of a push message (docs/behaviour.md#validation), shared by `pushctl validate`, `send` and the emulator.
// Structure (types, allowed values, unknown fields) is declared with zod; rules that need a message
// of their own and a fix are written as named checks, so every error carries `rule` and `fix`.
// zod/mini is used because it keeps the same rules at a fraction of the start-up cost.
import * as z from 'zod/mini';
import './zod-jitless.js';
import { COUNTRY_ALIASES, COUNTRY_CODES } from './countries.js';
import { MAX_TTL_SECONDS } from './duration.js';
import { firstControlCharacter } from './control-character.js';

/** The largest `data` object the service accepts: the UTF-8 size of its JSON text, in bytes. */
export const MAX_DATA_BYTES = 2048;

interface Finding {
  message: string;
  fix?: string;
  /** The field the finding is about, below the checked value (for rules that compare fields). */
  at?: string;
}

/** A named check: `test` returns undefined when the value passes, or what is wrong and how to fix it. */
function rule<T>(name: string, test: (value: T) => Finding | undefined) {
  return z.superRefine<T>((value, ctx) => {
    const finding = test(value);
    if (!finding) return;
    ctx.addIssue({ code: 'custom', message: finding.message, input: value, path: finding.at ? [finding.at] : [], params: { rule: name, fix: finding.fix } });
  });
}

export const nonEmptyString = z.string().check(
  rule<string>('non-empty', (s) => (s.length === 0 ? { message: 'must not be empty' } : undefined)),
);

/**
 * A client ID: not blank, and no control character (a NUL or an escape is no device's ID). Blank is empty
 * whether or not the body is trimmed first (normalize.ts): a body judged as received (the emulator's) refuses
 * " " as pushctl's validation does.
 */
export const clientId = z.string().check(
  rule<string>('non-empty', (s) => (s.trim().length === 0 ? { message: 'must not be empty' } : undefined)),
  rule<string>('client-id', (s) => {
    const control = firstControlCharacter(s);
    return control ? { message: `contains the control character ${control}`, fix: 'client IDs are printable text; check how the list was produced' } : undefined;
  }),
);

export const countryCode = z.string().check(
  rule<string>('country', (code) => {
    if (COUNTRY_CODES.has(code)) return undefined;
    const alias = COUNTRY_ALIASES[code] ?? (COUNTRY_CODES.has(code.toUpperCase()) ? code.toUpperCase() : undefined);
    return {
      message: `${JSON.stringify(code)} is not an ISO 3166-1 alpha-2 country code`,
      fix: alias ? `use ${alias}` : 'use a two-letter code such as US, GB, IN or CN',
    };
  }),
);

export const LANGUAGE = /^[a-z]{2,3}(-([A-Z]{2}|[0-9]{3}))?$/;

/** A language as a tag in the form LANGUAGE takes (`pt_BR`, Android's locale form, and `PT-br` → `pt-BR`); may not be valid. */
export function languageTagOf(text: string): string {
  const [lang = '', region] = text.split(/[-_]/);
  return region ? `${lang.toLowerCase()}-${region.toUpperCase()}` : lang.toLowerCase();
}

export const languageCode = z.string().check(
  rule<string>('language', (tag) => {
    if (LANGUAGE.test(tag)) return undefined;
    const suggestion = languageTagOf(tag);
    return {
      message: `${JSON.stringify(tag)} is not a language code (a bare language or language-region, such as zh or zh-CN)`,
      fix: LANGUAGE.test(suggestion) ? `use ${suggestion}` : 'use a form such as en, zh or zh-CN',
    };
  }),
);

/** `os_version`: an Android API level, a whole number written as a string. */
export const API_LEVEL = /^\d+$/;
export const osVersion = z.string().check(
  rule<string>('os-version', (v) =>
    API_LEVEL.test(v) ? undefined : { message: `${JSON.stringify(v)} is not an Android API level`, fix: 'use a whole number such as "33"' },
  ),
);

/** `notification.small_icon_color`: a colour of the form #RRGGBB. */
export const COLOUR = /^#[0-9A-Fa-f]{6}$/;

/**
 * The #RRGGBB a near miss most likely meant: the hash left out (`FF0000`, `0xFF0000`), or the CSS short
 * form (`#FFF` → `#FFFFFF`); otherwise an example.
 */
export function colourFix(value: string): string {
  const hex = /^\s*(?:#|0x)?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})\s*$/.exec(value)?.[1];
  if (hex === undefined) return 'use a value such as "#1A73E8"';
  const full = hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex;
  return `use "#${full.toUpperCase()}"`;
}

const httpUrl = (s: string): boolean => {
  try {
    const url = new URL(s);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

/**
 * `brand` and `model`: the interface document has the sender write them upper case without spaces (pushctl
 * converts its own messages in normalize.ts), so the service matches them as written.
 */
export const deviceName = z.string().check(
  rule<string>('non-empty', (s) => (s.length === 0 ? { message: 'must not be empty' } : undefined)),
  rule<string>('device-name', (s) => {
    const written = s.toUpperCase().replace(/\s+/g, '');
    if (written === s) return undefined;
    return { message: `${JSON.stringify(s)} is not upper case without spaces, as the service matches it`, ...(written ? { fix: `use ${JSON.stringify(written)}` } : {}) };
  }),
);

// Schemas are immutable, so fields with the same rule share one instance: every construction costs
// start-up time, and `pushctl validate` builds all of them on each run.
const optionalNames = z.optional(z.array(nonEmptyString));
const optionalDeviceNames = z.optional(z.array(deviceName));
const optionalText = z.optional(z.string());

export const targetingSchema = z.strictObject({
  country: z.optional(z.array(countryCode)),
  language: z.optional(z.array(languageCode)),
  brand: optionalDeviceNames,
  model: optionalDeviceNames,
  os_version: z.optional(z.array(osVersion)),
  app_version: optionalNames,
});

export const conditionSchema = z.strictObject({
  type: z.literal([0, 1, 2], { error: 'must be 0 (all devices), 1 (targeting) or 2 (client IDs)' }),
  client_ids: z.optional(z.array(clientId)),
  targeting: z.optional(targetingSchema),
}).check(
  rule<{ type: number; client_ids?: string[]; targeting?: object }>('condition', (c) => {
    if (c.type === 1 && c.targeting === undefined) {
      return { at: 'targeting', message: 'condition.type 1 needs condition.targeting', fix: 'add "targeting": {"country": ["US"]} or pass --country/--language/...' };
    }
    if (c.type === 2 && (c.client_ids === undefined || c.client_ids.length === 0)) {
      return { at: 'client_ids', message: 'condition.type 2 needs a non-empty condition.client_ids', fix: 'add "client_ids": ["..."] or pass --client-id' };
    }
    return undefined;
  }),
);

export const notificationSchema = z.strictObject({
  notification_type: z.optional(z.literal([1, 3], { error: 'must be 1 (system style) or 3 (button style)' })),
  title: optionalText,
  desc: optionalText,
  icon: optionalText,
  small_icon: optionalText,
  small_icon_color: z.optional(
    z.string().check(
      rule<string>('colour', (c) =>
        COLOUR.test(c) ? undefined : { message: `${JSON.stringify(c)} is not a colour of the form #RRGGBB`, fix: colourFix(c) },
      ),
    ),
  ),
  open_type: z.optional(z.literal(['1', '2'], { error: 'must be "1" (open the app) or "2" (open a URL)' })),
  open_content: optionalText,
  button_text: optionalText,
}).check(
  rule<{ open_type?: string; open_content?: string }>('open-content', (n) => {
    if (n.open_type !== '2') return undefined;
    if (n.open_content !== undefined && httpUrl(n.open_content)) return undefined;
    return n.open_content === undefined
      ? { at: 'open_content', message: 'open_type "2" (open a URL) needs open_content', fix: 'add "open_content": "https://..." or pass --open-url' }
      : { at: 'open_content', message: `${JSON.stringify(n.open_content)} is not an http(s) URL, which open_type "2" needs`, fix: 'use a URL such as https://example.com/news' };
  }),
);

// TextEncoder, not Buffer: the inbox page runs these rules in the browser, which has no Buffer.
export const dataSchema = z.record(z.string(), z.string({ error: 'must be a string, number or boolean' })).check(
  rule<Record<string, string>>('data-size', (data) => {
    const bytes = new TextEncoder().encode(JSON.stringify(data)).length;
    return bytes <= MAX_DATA_BYTES
      ? undefined
      : { message: `data is ${bytes} bytes of JSON; the service accepts at most ${MAX_DATA_BYTES}`, fix: `remove ${bytes - MAX_DATA_BYTES} byte${bytes - MAX_DATA_BYTES === 1 ? '' : 's'}` };
  }),
);

export const pushMessageSchema = z.strictObject({
  dry_run: z.optional(z.boolean()),
  type: z.literal([1, 2], { error: 'must be 1 (notification) or 2 (data)' }),
  time_to_live: z.int().check(
    rule<number>('ttl', (ttl) =>
      ttl <= 0
        ? { message: 'must be a positive number of seconds', fix: 'use e.g. 3600, or --ttl 1h' }
        : ttl > MAX_TTL_SECONDS
          ? { message: `${ttl} is out of range: use 1 to ${MAX_TTL_SECONDS} seconds (the service's int)`, fix: 'use e.g. 3600, or --ttl 28d' }
          : undefined,
    ),
  ),
  condition: conditionSchema,
  notification: z.optional(notificationSchema),
  data: z.optional(dataSchema),
}).check(
  // A blank push to every device is the accident this tool exists to prevent (docs/behaviour.md#validation).
  rule<{ type: number; notification?: { title?: string; desc?: string } }>('empty-notification', (m) =>
    m.type === 1 && !m.notification?.title && !m.notification?.desc
      ? { at: 'notification', message: 'a notification needs a title or a desc; with neither it shows a blank push', fix: 'add --title or --desc (or "title"/"desc" in notification)' }
      : undefined,
  ),
);

/** The known field names of each object, for "did you mean" suggestions. */
export const KNOWN_FIELDS: Record<string, readonly string[]> = {
  '': Object.keys(pushMessageSchema.shape),
  condition: Object.keys(conditionSchema.shape),
  'condition.targeting': Object.keys(targetingSchema.shape),
  notification: Object.keys(notificationSchema.shape),
};
