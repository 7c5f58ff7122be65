// Messages written for the command line name its flags (`pass --var name=...`, `--to nope: no audiences`); a
// model calling a tool can pass none of them, and tried (`"--title": "Hi"`). Every answer of `pushctl mcp` is
// said in the tools' terms here, at the one place results are made (results.ts), as the action says its
// messages in its inputs' terms (src/action/terms.ts): a flag that stands for an argument is named as that
// argument (`--client-id` → `clientId`, the argument names being the options' own), a flag the server was
// started with is named as the server's, and a command printed to run in a shell keeps its flags. Pure.

import { anyOf, QUOTED_VALUE, quotesFlagLike, rewordOutside } from '../../reword.js';

type Replacement = string | ((match: string, ...groups: string[]) => string);

/** kebab-case → camelCase, as commander names an option and the tools name their arguments. */
const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The flags of `pushctl mcp` itself: a call cannot change them, the person who starts the server can. */
const SERVER_FLAGS = /^(?:app-id|base-url|region|config|app-secret-file|insecure|proxy|timeout|allow-send|verbose)$/;

/** Arguments that take a list: an example value is written as the JSON array a call gives. */
const LISTS = new Set(['clientId', 'country', 'language', 'brand', 'model', 'osVersion', 'appVersion']);

const quoted = (value: string) => JSON.stringify(value);
const example = (name: string, value: string) => `\`${name}\`: ${LISTS.has(name) ? `[${value.split(',').map(quoted).join(', ')}]` : quoted(value)}`;

/** Whole phrases first: a flag with its value, or words about flags, read as what a call gives. */
const PHRASES: [RegExp, Replacement][] = [
  // A call is always journaled: there is no way to turn it off.
  [/,? or pass --no-journal \(then a kill loses the record\)/g, ''],
  // assemble.ts: `pass --var name=...` for an unfilled placeholder.
  [/(?:pass |give )?--var ([^\s=]+)=\.\.\./g, (_, name: string) => `give \`vars\`: {${quoted(name)}: "…"}`],
  [/--var(?: key=value)?(?![\w-])/g, '`vars`'],
  // A call's message is the object `message`, not a file it names.
  [/\bin a message file, but no --file was given/g, 'in `message`, but no `message` was given'],
  [/\badd -f message\.json/g, 'add `message`'],
  [/(?:-f\/)?--file(?: <path>)?(?![\w-])|(?<![\w-])-f(?![\w-])/g, '`message`'],
  [/--data-file(?: <path>)?|--data(?: key=value)?(?![\w-])|(?<![\w-])-d key=value/g, '`data`'],
  // A client ID list given whole is one argument; a file of them is an audience's (client_ids_file).
  [/--client-id\/--client-ids-file/g, '--client-id'],
  [/\btargeting flags?\b/g, (flag) => flag.replace('flag', 'argument')],
  [/\bpass (?=--[a-z])/g, 'give '],
  [/\be\.g\. --([a-z-]+) ([\w,.-]+)/g, (_, flag: string, value: string) => `e.g. ${example(camel(flag), value)}`],
  [/--(style) (system|button)\b/g, (_, flag: string, value: string) => example(flag, value)],
  // A value named right after a flag is the argument's value (`--to nope:` → `to` "nope":).
  [/--(to|once|profile) (?!<)([^\s:,;()"]+)(?=[:,)]|$| and | or )/g, (_, flag: string, value: string) => `\`${flag}\` ${quoted(value)}`],
  [/\bflag (?=--[a-z])/g, ''],
  // No argument retries a request in doubt: the answer's include_in_doubt_command or `includeInDoubt` with `once` sends to them again.
  [/ \(--retry-in-doubt retries\)/g, ''],
  [/; not retried without --retry-in-doubt/g, '; not retried'],
  // A call is journaled where the server journals: its directory is the server's PUSHCTL_JOURNAL_DIR.
  [/, give --journal a writable path/g, ''],
  // A call's client IDs from a file come through an audience (`to`) whose client_ids_file lists them.
  [/the file given to --client-ids-file/g, "the audience's client_ids_file"],
  // No argument sets the batch size: a shell's resend does (the command is kept as printed).
  [/resend with a lower --batch-size/g, 'resend them from a shell with a lower batch size (pushctl resend <run> --batch-size <n>)'],
  // A call's message is an object, not a file; its placeholders' values are `vars`.
  [/\bthe same message file, variables\b/g, 'the same message, vars'],
];

/** One flag (`written` as the text has it): the argument it stands for, the server's own, or (a flag with no place in a call) as written. */
function flagTerm(written: string, flag: string, args: ReadonlySet<string>): string {
  const name = camel(flag);
  if (args.has(name)) return `\`${name}\``;
  if (flag === 'dry-run') return 'the dry_run tool';
  // Every answer is JSON already, its structured content: what --json would print, whole.
  if (flag === 'json') return 'the structured content';
  if (SERVER_FLAGS.test(flag)) return `the server's ${written}`;
  return written;
}

/** Prose in the tools' terms, but for the values it quotes back to the call (see src/reword.ts). */
const proseTerms = (text: string, args: ReadonlySet<string>): string => rewordOutside(text, QUOTED_VALUE, (prose) => phraseTerms(prose, args), quotesFlagLike);

function phraseTerms(text: string, args: ReadonlySet<string>): string {
  let out = text;
  for (const [pattern, replacement] of PHRASES) out = typeof replacement === 'string' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  // A phrase quotes the value it names (`--to x` → `to` "x"): that value is the call's too.
  return rewordOutside(out, QUOTED_VALUE, (prose) => prose.replace(/(?<![\w`'-])--([a-z][a-z-]*)(?: <[a-z-]+>)?/g, (written: string, flag: string) => flagTerm(written, flag, args)), quotesFlagLike);
}

/**
 * A command printed to be run in a shell (`pushctl resend …`, in a code span or after "with:"): it must run as
 * printed, so it keeps the CLI's flags. It is pushctl and a command of it ("pushctl did not retry" is prose), and
 * ends at a code span's end, a line's, a clause's (`;`, `, or`) or a `)`.
 */
const COMMAND = /(`+) ?pushctl [^`\n]*?\1|pushctl (?:send|dry-run|validate|resend|runs|init|config|check|serve|schema|mcp|completion)\b[^;\n`]*?(?=, or |; |\)|$)/gm;

/**
 * A command that one of the tools is, named as the tool: reading the runs is list_runs and show_run, whatever
 * runs the server. A command with more to it (`pushctl runs show <run> --report <path>`) has no tool and is kept.
 */
const TOOL_COMMANDS: [RegExp, Replacement][] = [
  [/`?(?:pushctl )?runs show (<[a-z ]+>|[\w./~-]+)`?(?![\w./~-]| -)/g, (_, run: string) => (run.startsWith('<') ? 'show_run' : `show_run {"run": ${quoted(run)}}`)],
  [/`pushctl runs`|(?<![\w`])pushctl runs(?![\w`-]|\s(?:show\b|--))/g, 'list_runs'],
];

/**
 * `text` with the CLI's flags named as the tools' arguments (`args`), the commands in it and the `data` it shows
 * (a message's own words, dataStrings) kept as they are.
 */
export function inToolTerms(given: string, args: ReadonlySet<string>, data: readonly string[] = []): string {
  if (data.length === 0) return wordsInToolTerms(given, args);
  return rewordOutside(given, anyOf(data), (prose) => wordsInToolTerms(prose, args));
}

function wordsInToolTerms(given: string, args: ReadonlySet<string>): string {
  let text = given;
  for (const [pattern, tool] of TOOL_COMMANDS) text = typeof tool === 'string' ? text.replace(pattern, tool) : text.replace(pattern, tool);
  return rewordOutside(text, COMMAND, (prose) => proseTerms(prose, args));
}

/** The keys of an answer's document whose strings are pushctl's words; the rest (a body, a title, a path, a command) are data. */
const PROSE_KEYS = new Set(['message', 'hint', 'fix']);
/** Subtrees of data: the message as sent, the emulator's messages, a schema. */
const DATA_KEYS = new Set(['body', 'variants', 'messages', 'schema']);

/** What a rewording would touch: a dash and a letter not inside a word, or a command named as a tool. */
const REWORDABLE = /(?<![\w`'-])--?[a-z]|runs show|pushctl runs/;
/** The most data strings an answer's text is searched for (a title, a description, a few data entries). */
const MAX_DATA = 50;

/**
 * The message's own words in an answer's document (strings of a body, the inbox's messages or variants, and any
 * title or desc) that its text may show, as written, and a rewording would change: for inToolTerms to keep.
 */
export function dataStrings(document: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, data: boolean) => {
    if (found.size >= MAX_DATA) return;
    if (typeof value === 'string') {
      if (data && REWORDABLE.test(value)) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, data);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) visit(inner, data || DATA_KEYS.has(key) || key === 'title' || key === 'desc');
    }
  };
  visit(document, false);
  return [...found];
}

/** The document with its prose said in the tools' terms. */
export function documentInToolTerms(value: unknown, args: ReadonlySet<string>, key = ''): unknown {
  if (typeof value === 'string') return PROSE_KEYS.has(key) ? inToolTerms(value, args) : value;
  if (Array.isArray(value)) return value.map((item) => documentInToolTerms(item, args, key));
  if (value === null || typeof value !== 'object' || DATA_KEYS.has(key)) return value;
  return Object.fromEntries(Object.entries(value).map(([inner, innerValue]) => [inner, documentInToolTerms(innerValue, args, inner)]));
}
