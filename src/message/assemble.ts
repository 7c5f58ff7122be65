// Builds the request body from a message file, `--var` values and flags (docs/behaviour.md#message-input).
// Pure: the caller reads files and stdin and passes their text in. Flags override the file field by field.
import type { ClientIdSource, RecipientLanguageSource } from './recipients.js';
import { FilePositionError, invalidMessageError, usageError } from '../errors.js';
import { DURATION_EXAMPLES, MAX_TTL_SECONDS, parseDurationMs, parseDurationSeconds } from './duration.js';
import { duplicateKeys, JsonSyntaxError, parseJson } from './parse-json.js';
import { formatPath } from './issues.js';
import { fillPlaceholders } from './placeholders.js';
import { setOwn } from './own-key.js';
import type { MessageIssue, NamedAudience } from './types.js';

/** The message flags of send, dry-run and validate, as commander hands them over. */
/** The flags that choose recipients: every device, client IDs, or targeting conditions. */
export interface RecipientFlags {
  /** Set when `--to` chose the recipients: they are then changed in the config file, not by flags. */
  audience?: NamedAudience;
  all?: boolean;
  clientId?: string[];
  country?: string[];
  language?: string[];
  brand?: string[];
  model?: string[];
  osVersion?: string[];
  appVersion?: string[];
}

export interface MessageFlags extends RecipientFlags {
  type?: string;
  ttl?: string;
  title?: string;
  desc?: string;
  style?: string;
  icon?: string;
  smallIcon?: string;
  smallIconColor?: string;
  buttonText?: string;
  openApp?: boolean;
  openUrl?: string;
  openActivity?: string;
  data?: string[];
  var?: string[];
  /** Data entries given as an object (an MCP call's `data`): a key may hold `=`, which `-d key=value` cannot say. */
  dataEntries?: Record<string, string>;
  /** Placeholder values given as an object (an MCP call's `vars`). */
  varEntries?: Record<string, string>;
}

export interface AssembleInput {
  flags: MessageFlags;
  /** The message file's text and a name for errors (`-` shows as stdin). */
  file?: { name: string; text: string };
  dataFile?: { name: string; text: string };
  /**
   * Recipients from `--client-id` and `--client-ids-file`, already trimmed, non-blank and unique (the
   * caller's collector did that, counting the repeats). When given, `flags.clientId` is not read again.
   * An array, or a ClientIdStore that keeps a million of them compactly.
   */
  recipients?: { ids: ClientIdSource; duplicates: number; fromReport?: boolean; inDoubtLeftOut?: number; languages?: RecipientLanguageSource };
  /** Placeholders a caller fills from elsewhere (the action's `release.`), and its error when it cannot. */
  placeholderScopes?: readonly PlaceholderScope[];
}

/** Placeholders under `prefix` come from the caller's source; `error` says why that source has none. */
export interface PlaceholderScope {
  prefix: string;
  error: (name: string, path: string) => Error;
}

export interface Assembled {
  message: Record<string, unknown>;
  notes: MessageIssue[];
  /**
   * Clean recipients kept beside the message rather than inside it, so a million of them are not copied
   * by every check: see validateAssembled. The message then has `condition: { type: 2 }`.
   */
  clientIds?: ClientIdSource;
  /** Each of `clientIds`' language, by position (a CSV's `language` column): the variant each ID gets. */
  languages?: RecipientLanguageSource;
  /** The named audience that chose the recipients (`--to`). */
  audience?: NamedAudience;
}

/** A flags-only message that names no lifetime lives one day: long enough for a test, short enough to expire. */
export const DEFAULT_TTL_SECONDS = 86_400;

const TARGETING_FLAGS = [
  ['country', 'country'],
  ['language', 'language'],
  ['brand', 'brand'],
  ['model', 'model'],
  ['osVersion', 'os_version'],
  ['appVersion', 'app_version'],
] as const;

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...(v as Json) } : {});

/**
 * `key=value` pairs into an object; the flag name goes into the error. A key given twice with another value
 * is noted under `at` (`notes`), as a key given twice in a file is: the last is kept, and the first would
 * otherwise be dropped without a word (`-d channel=beta … -d channel=stable`).
 */
export function parsePairs(pairs: readonly string[] = [], flag: string, notes: MessageIssue[], at: string): Record<string, string> {
  const out: Record<string, string> = {};
  const given = new Map<string, string[]>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`${flag} ${JSON.stringify(pair)} is not key=value`, `write it as ${flag} name=value`);
    const [key, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
    given.set(key, [...(given.get(key) ?? []), value]);
    setOwn(out, key, value);
  }
  for (const [key, values] of given) {
    if (new Set(values).size < 2) continue;
    const quoted = values.map((value) => JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value));
    notes.push({ path: formatPath([at, key]), rule: 'duplicate-key', message: `given ${values.length} times by ${flag} (${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)!}); the last one ${at === 'vars' ? `fills {{${key}}}` : 'is sent'}` });
  }
  return out;
}

/** Repeatable flags that also take comma lists: `--country us,gb --country de`. */
const splitList = (values: readonly string[]): string[] => values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');

/**
 * A JSON file's value. A key given twice in one object is noted (`notes`), with `at` before its path: JSON.parse
 * keeps the last value, and the first would otherwise be dropped without a word.
 */
function parseFileJson(file: { name: string; text: string }, what: string, notes: MessageIssue[], at: string[] = []): unknown {
  try {
    const value = parseJson(file.text);
    const name = file.name === '-' ? 'stdin' : file.name;
    for (const key of duplicateKeys(file.text, value)) {
      notes.push({ path: formatPath([...at, ...key.path]), rule: 'duplicate-key', message: `given ${key.lines.length} times in ${what} ${name} (lines ${key.lines.slice(0, -1).join(', ')} and ${key.lines.at(-1)!}); the last one is sent` });
    }
    return value;
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      const name = file.name === '-' ? 'stdin' : file.name;
      // YAML, TOML or plain text: saying where the JSON broke would not help; saying what is expected does.
      const start = file.text.replace(/^\uFEFF/, '').trimStart();
      const opener = start[0];
      // A comment before the object is JSON with a mistake in it, not another format.
      const comment = start.startsWith('//') || start.startsWith('/*');
      if (opener !== undefined && opener !== '{' && opener !== '[' && !comment) {
        throw invalidMessageError(
          `${what} ${name} is not JSON (it starts with ${JSON.stringify(opener)}, not "{"): ${what === 'message file' ? 'message files are JSON in the service\'s own shape' : 'it must be a JSON object'}`,
          what === 'message file' ? 'see the format with pushctl schema, or build the message from flags (pushctl send --help)' : 'write it as {"key": "value"}',
        );
      }
      const message = `${what} ${name} is not valid JSON: ${error.message}`;
      // A mistake json-mistake.ts does not recognise (a cut-off file, 100 levels of brackets) still gets a
      // next step (docs/behaviour.md#exit-codes): where to look, and which input it was.
      const flag = what === 'message file' ? '-f' : '--data-file';
      const hint = error.fix ?? `fix the JSON at line ${error.line}, column ${error.column}, or check the file given to ${flag}`;
      throw file.name === '-' ? invalidMessageError(message, hint) : new FilePositionError(message, hint, file.name, error.line, error.column);
    }
    throw error;
  }
}

function parseType(value: string): 1 | 2 {
  const t = { notification: 1, '1': 1, data: 2, '2': 2 }[value.toLowerCase()];
  if (t === undefined) throw usageError(`--type ${JSON.stringify(value)} is not a message type`, 'use --type notification (1) or --type data (2)');
  return t as 1 | 2;
}

export function assembleMessage(input: AssembleInput): Assembled {
  const { flags } = input;
  const notes: MessageIssue[] = [];
  // Spread copies own keys as they are, `__proto__` included.
  const vars = { ...parsePairs(flags.var, '--var', notes, 'vars'), ...flags.varEntries };

  let message: Json = {};
  if (input.file) {
    const parsed = parseFileJson(input.file, 'message file', notes);
    const filled = fillPlaceholders(parsed, vars);
    for (const missing of filled.missing) {
      const scope = input.placeholderScopes?.find((s) => missing.name.startsWith(s.prefix));
      if (scope) throw scope.error(missing.name, missing.path);
    }
    const first = filled.missing[0];
    if (first) {
      const names = filled.missing.map((m) => m.name).join(', ');
      throw invalidMessageError(
        `unfilled placeholder {{${first.name}}} at ${first.path || 'the top level'}${filled.missing.length > 1 ? ` (all unfilled: ${names})` : ''}`,
        `pass --var ${first.name}=...`,
      );
    }
    // Anything but an object is left for the validator to reject with its own message.
    if (typeof filled.value !== 'object' || filled.value === null || Array.isArray(filled.value)) {
      return { message: filled.value as Json, notes };
    }
    message = { ...(filled.value as Json) };
  } else if (flags.var?.length || Object.keys(flags.varEntries ?? {}).length > 0) {
    throw usageError('--var fills {{placeholders}} in a message file, but no --file was given', 'add -f message.json, or drop --var');
  }

  if (flags.type !== undefined) message.type = parseType(flags.type);
  if (flags.ttl !== undefined) {
    // The range first: past 2^53 a number of seconds is no longer exact, and would read as "not a duration".
    if ((parseDurationMs(flags.ttl) ?? 0) > MAX_TTL_SECONDS * 1000) {
      throw usageError(`--ttl ${flags.ttl} is out of range`, `use 1 to ${MAX_TTL_SECONDS} seconds (the service's int), e.g. --ttl 28d`);
    }
    const ms = parseDurationMs(flags.ttl);
    if (ms === undefined) throw usageError(`--ttl ${JSON.stringify(flags.ttl)} is not a duration`, `use seconds (3600) or ${DURATION_EXAMPLES}`);
    if (ms < 1000) throw usageError(`--ttl ${flags.ttl} is too short: time_to_live is at least 1 second`, 'e.g. --ttl 90s');
    const seconds = parseDurationSeconds(flags.ttl);
    if (seconds === undefined) throw usageError(`--ttl ${flags.ttl} is not a whole number of seconds`, `round it, e.g. --ttl ${Math.round(ms / 1000)}`);
    message.time_to_live = seconds;
  }

  applyCondition(message, input, flags);
  const { recipients } = input;
  if (recipients?.fromReport) {
    const leftOut = recipients.inDoubtLeftOut ?? 0;
    notes.push({
      path: 'condition.client_ids',
      rule: 'report',
      message: `read the ${recipients.ids.length} client IDs left to send of a pushctl report or run journal${leftOut > 0 ? `; left out ${leftOut} in doubt (the service may already have delivered to them: --include-in-doubt adds them)` : ''}`,
    });
  }
  if (recipients?.duplicates) {
    notes.push(dedupeNote(recipients.duplicates));
  }
  applyNotification(message, flags);
  applyData(message, input, flags, notes);

  // A message typed entirely on the command line gets sensible defaults, each listed as a note.
  if (!input.file) {
    if (message.type === undefined) {
      message.type = message.notification === undefined && message.data !== undefined ? 2 : 1;
      notes.push({ path: 'type', rule: 'default', message: `no --type given: sending a ${message.type === 1 ? 'notification' : 'data message'} (${message.type})` });
    }
    if (message.time_to_live === undefined) {
      message.time_to_live = DEFAULT_TTL_SECONDS;
      notes.push({ path: 'time_to_live', rule: 'default', message: 'no --ttl given: the message lives 1 day (86400 s)' });
    }
  }
  return { message, notes, ...(recipients ? { clientIds: recipients.ids } : {}), ...(recipients?.languages ? { languages: recipients.languages } : {}), ...(flags.audience ? { audience: flags.audience } : {}) };
}

function applyCondition(message: Json, input: AssembleInput, flags: MessageFlags): void {
  const byIds = flags.clientId !== undefined || input.recipients !== undefined;
  // A flag whose value names nothing (`--country "$COUNTRY"`, the variable unset) is a criterion not given, as
  // the MCP tools read an empty list: kept, its empty list would restrict nothing and reach every device.
  const targeting = TARGETING_FLAGS.filter(([flag]) => splitList(flags[flag] ?? []).length > 0);
  const chosen = [flags.all ? '--all' : '', byIds ? '--client-id/--client-ids-file' : '', targeting.length ? `--${targeting[0]![1].replace('_', '-')}` : ''].filter(Boolean);
  if (chosen.length > 1) {
    throw usageError(`${chosen.join(' and ')} choose recipients in different ways`, 'use one of --all, client IDs, or targeting flags');
  }
  if (flags.all) message.condition = { type: 0 };
  // Clean recipients travel beside the message (see Assembled.clientIds); raw flag values go inside it.
  if (byIds) message.condition = input.recipients ? { type: 2 } : { type: 2, client_ids: splitList(flags.clientId ?? []) };
  if (targeting.length) {
    const condition = asObject(message.condition);
    const existing = asObject(condition.targeting);
    for (const [flag, field] of targeting) existing[field] = splitList(flags[flag]!);
    // Targeting flags refine a file's targeting; they replace a file's other way of choosing recipients.
    message.condition = { type: 1, targeting: existing };
  }
}

function applyNotification(message: Json, flags: MessageFlags): void {
  const n = asObject(message.notification);
  const before = Object.keys(n).length;
  const set = (field: string, value: unknown) => {
    if (value !== undefined) n[field] = value;
  };
  set('title', flags.title);
  set('desc', flags.desc);
  if (flags.style !== undefined) {
    const style = { system: 1, button: 3 }[flags.style.toLowerCase()];
    if (style === undefined) throw usageError(`--style ${JSON.stringify(flags.style)} is not a style`, 'use --style system or --style button');
    n.notification_type = style;
  }
  set('icon', flags.icon);
  set('small_icon', flags.smallIcon);
  set('small_icon_color', flags.smallIconColor);
  set('button_text', flags.buttonText);
  const actions = [flags.openApp && '--open-app', flags.openUrl !== undefined && '--open-url', flags.openActivity !== undefined && '--open-activity'].filter(Boolean);
  if (actions.length > 1) throw usageError(`${actions.join(' and ')} conflict: a click does one thing`, 'keep one of --open-app, --open-url, --open-activity');
  if (flags.openApp) {
    n.open_type = '1';
    delete n.open_content;
  }
  // An empty name would send open_type "1" with nothing to open: what was meant is --open-app, or a name forgotten.
  if (flags.openActivity?.trim() === '') throw usageError(`--open-activity ${JSON.stringify(flags.openActivity)} names no activity`, "give the activity's name, such as com.example.app.NewsActivity, or open the app instead (--open-app)");
  if (flags.openActivity !== undefined) Object.assign(n, { open_type: '1', open_content: flags.openActivity });
  if (flags.openUrl !== undefined) Object.assign(n, { open_type: '2', open_content: flags.openUrl });
  if (Object.keys(n).length > 0 || before > 0 || message.notification !== undefined) message.notification = n;
}

function applyData(message: Json, input: AssembleInput, flags: MessageFlags, notes: MessageIssue[]): void {
  const pairs = { ...parsePairs(flags.data, '--data', notes, 'data'), ...flags.dataEntries };
  if (!input.dataFile && Object.keys(pairs).length === 0) return;
  let data = asObject(message.data);
  if (input.dataFile) {
    const parsed = parseFileJson(input.dataFile, 'data file', notes, ['data']);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidMessageError(`data file ${input.dataFile.name} must hold a JSON object of string values`, 'write it as {"key": "value"}');
    }
    data = { ...data, ...(parsed as Json) };
  }
  message.data = { ...data, ...pairs };
}

/** The note that repeated client IDs were dropped (each is sent once). */
export function dedupeNote(duplicates: number): MessageIssue {
  return { path: 'condition.client_ids', rule: 'dedupe', message: `removed ${duplicates} duplicate client ID${duplicates === 1 ? '' : 's'}` };
}
