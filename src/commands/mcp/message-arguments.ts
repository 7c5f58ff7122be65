// The arguments of the tools that take a message (validate_message, dry_run, send_message): a message object
// in the service's own shape, as a message file holds it, and/or the fields the CLI's message flags set.
// Names follow the CLI's options (--client-id → clientId), so a tool call and a command line read alike.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';
import type { MessageInputOptions } from '../../input/read-message-input.js';
import { recipientLists } from '../shared/message-options.js';
import { ownKeyRecord } from '../shared/option-kinds.js';
import { setOwn } from '../../message/own-key.js';

const text = z.optional(z.string());

/**
 * The message object itself. Any object is taken here: its content is judged by the validator, whose
 * findings carry JSON paths and fixes; the JSON Schema shown to clients is the message file's (json-schema.ts).
 */
export const messageObject = ownKeyRecord(z.unknown());

export const messageFields = {
  message: z.optional(messageObject),
  vars: z.optional(ownKeyRecord(z.string())),
  // --type takes 1 and 2 too, and the message's own "type" is a number: an agent reading either writes 1.
  type: z.optional(z.union([z.enum(['notification', 'data']), z.literal(1), z.literal(2)])),
  ttl: z.optional(z.union([z.string(), z.int()])),
  to: text,
  all: z.optional(z.boolean()),
  ...recipientLists,
  // An API level is a number to whoever writes one ("os_version": [33] is converted, docs/behaviour.md#validation).
  osVersion: z.optional(z.array(z.union([z.string(), z.int()]))),
  title: text,
  desc: text,
  style: z.optional(z.enum(['system', 'button'])),
  icon: text,
  smallIcon: text,
  smallIconColor: text,
  buttonText: text,
  openApp: z.optional(z.boolean()),
  openUrl: text,
  openActivity: text,
  data: z.optional(ownKeyRecord(z.union([z.string(), z.number(), z.boolean()]))),
  strict: z.optional(z.boolean()),
};

/**
 * What each argument means, for the client's model, in the message's own terms: a model cannot pass the flag an
 * argument stands for, and a flag's name in a description invited it to try (`"--title": "Hi"`).
 */
export const FIELD_DESCRIPTIONS: Record<string, string> = {
  message: "the request body in the service's own shape, as a message file holds it; the arguments below override it field by field. Outline here; the whole schema (country codes, patterns, rules): message_schema",
  vars: 'values for {{key}} placeholders in message',
  type: 'notification (1) or data (2)',
  ttl: 'time_to_live: seconds, or a duration such as 90s, 15m, 6h, 2d',
  to: 'a named audience of the config file ("audiences"), e.g. my-phones',
  all: 'every device (condition.type 0)',
  clientId: 'these client IDs (condition.type 2)',
  country: 'targeting: ISO 3166-1 codes such as US, GB',
  language: 'targeting: language tags such as en, zh-CN',
  brand: 'targeting: device brands',
  model: 'targeting: device models',
  osVersion: 'targeting: Android API levels such as 33',
  appVersion: 'targeting: app versions',
  title: 'notification.title',
  desc: 'notification.desc',
  style: 'system (notification_type 1) or button (3)',
  icon: 'notification.icon (button style)',
  smallIcon: 'notification.small_icon (system style)',
  smallIconColor: 'notification.small_icon_color, #RRGGBB (system style)',
  buttonText: 'notification.button_text (button style)',
  openApp: 'open the app on click',
  openUrl: 'open this URL on click',
  openActivity: 'open this Activity on click',
  data: 'data entries (numbers and booleans become strings)',
  strict: 'treat warnings as errors',
  once: 'a key: a second call with the same key sends nothing, or finishes what the first left',
  includeInDoubt: 'with once: also send to recipients an earlier run left in doubt (they may get it twice)',
  profile: "a profile of the config file instead of the server's; a list (eu,us) sends to each",
  // list_runs lists newest first, list_inbox newest last: both list the newest.
  limit: 'how many of the newest to list',
  allApps: "every app's messages, not only the server's app ID's",
  run: 'a run id (from list_runs) or the path of a journal file',
};

export type MessageFields = { [K in keyof typeof messageFields]?: z.infer<(typeof messageFields)[K]> };

/** The entries as text, as `-d key=value` gives them, every key kept (`__proto__` too). */
function asText(entries: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (entries === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) setOwn(out, key, String(value));
  return out;
}

/**
 * The options the CLI would have parsed from the equivalent flags. The message object is read as `-f -`
 * would read it: the caller gives it as the call's stdin, so it takes the file's path through assembly.
 */
export function messageInputOptions(fields: MessageFields): MessageInputOptions & { strict?: boolean } {
  const { message, vars, data, ttl, type, osVersion, ...flags } = fields;
  const options: Record<string, unknown> = { ...flags };
  if (type !== undefined) options.type = String(type);
  if (osVersion !== undefined) options.osVersion = osVersion.map(String);
  if (message !== undefined) options.file = '-';
  if (ttl !== undefined) options.ttl = String(ttl);
  // As objects, not key=value pairs: a key holding "=" would be split at it.
  if (vars !== undefined) options.varEntries = asText(vars);
  if (data !== undefined) options.dataEntries = asText(data);
  // An empty list is how an agent fills a list it does not mean to give: no flag, as on a command line.
  for (const [key, value] of Object.entries(options)) if (value === undefined || (Array.isArray(value) && value.length === 0)) delete options[key];
  return options as MessageInputOptions & { strict?: boolean };
}
