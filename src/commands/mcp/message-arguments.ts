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

/** What each field means, for the client's model: the flag it stands for says the rest. */
export const FIELD_DESCRIPTIONS: Record<string, string> = {
  message: 'the request body in the service\'s own shape, as a message file holds it (pushctl schema); the fields below override it field by field',
  vars: 'values for {{key}} placeholders in `message` (--var key=value)',
  type: '--type: notification (1) or data (2)',
  ttl: '--ttl: time_to_live, seconds or a duration such as 90s, 15m, 6h, 2d',
  to: '--to: a named audience of the config file ("audiences"), e.g. my-phones: the recipients it stands for',
  all: '--all: every device (condition.type 0)',
  clientId: '--client-id: these client IDs (condition.type 2)',
  country: '--country: ISO 3166-1 codes such as US, GB',
  language: '--language: language codes such as en, zh-CN',
  brand: '--brand: device brands',
  model: '--model: device models',
  osVersion: '--os-version: Android API levels such as 33',
  appVersion: '--app-version: app versions',
  title: '--title: notification.title',
  desc: '--desc: notification.desc',
  style: '--style: system (notification_type 1) or button (3)',
  icon: '--icon: notification.icon (button style)',
  smallIcon: '--small-icon: notification.small_icon (system style)',
  smallIconColor: '--small-icon-color: #RRGGBB (system style)',
  buttonText: '--button-text: notification.button_text (button style)',
  openApp: '--open-app: open the app on click',
  openUrl: '--open-url: open this URL on click',
  openActivity: '--open-activity: open this Activity on click',
  data: '-d key=value: data entries (strings; numbers and booleans are converted)',
  strict: '--strict: treat warnings as errors',
  once: '--once: send this message to this audience once; a second call with the same key finds the earlier run and sends nothing, or finishes it',
  includeInDoubt: '--include-in-doubt: with once, also send to recipients an earlier run left in doubt (they may get it twice)',
  profile: '--profile: a profile of the config file, instead of the server\'s; a list (eu,us) sends to each',
  // list_runs lists newest first, list_inbox newest last: both list the newest.
  limit: 'how many of the newest to list',
  allApps: "list_inbox: every app's messages, not only those of the server's app ID",
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
