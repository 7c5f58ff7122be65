// The message flags of validate, send and dry-run (content and recipients), as one schema that each such
// command's options extend. Their values are checked by the message schema once the message is assembled
// (message/), which names the field and the flag.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { optionalFlag, optionalList, optionalText, ownKeyRecord } from './option-kinds.js';
import type { PlaceholderScope } from '../../message/assemble.js';

const text = optionalText;
const flag = optionalFlag;
const list = optionalList;

/**
 * The recipient flags' fields, which the MCP tools' arguments take under the same names (a tool call and a
 * command line read alike): each a list of strings.
 */
export const recipientLists = { clientId: list, country: list, language: list, brand: list, model: list, osVersion: list, appVersion: list };

export const messageOptionsSchema = z.object({
  file: text,
  var: list,
  type: text,
  ttl: text,
  strict: flag,
  to: text,
  all: flag,
  ...recipientLists,
  clientIdsFile: text,
  title: text,
  desc: text,
  /** Hidden alias of --desc. */
  body: text,
  style: text,
  icon: text,
  smallIcon: text,
  smallIconColor: text,
  buttonText: text,
  openApp: flag,
  openUrl: text,
  openActivity: text,
  data: list,
  dataFile: text,
  /** Not flags: data entries and placeholder values given as objects (an MCP call's), whose keys no key=value pair could carry whole. */
  dataEntries: z.optional(ownKeyRecord(z.string())),
  varEntries: z.optional(ownKeyRecord(z.string())),
  /** Not a flag: placeholders another source fills (the action's release), see assembleMessage. */
  placeholderScopes: z.optional(z.readonly(z.array(z.custom<PlaceholderScope>((value) => typeof value === 'object' && value !== null)))),
});
