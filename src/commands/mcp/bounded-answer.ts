// A tool's answer kept to a size a client reads. The SDK's client gives up on a line over 10 MiB and closes the
// connection, and a model reads far less: validate_message of 600,000 client IDs echoed them twice (20 MB), and
// the session was gone. Hosts cap what a tool may return near 100 kB (Claude Code at 25,000 tokens, and others
// alike) and refuse or truncate the rest blindly, so a result's two parts, the structured document and the text,
// are each kept to 40 KiB: the whole result stays under 100 kB. An answer within the bound is the CLI's --json
// document untouched (one truth); a larger one keeps the first items of each long list and the start of each
// long string, cut harder until it fits, and says what it cut under `elided` (path, shown, total), so a count is
// never lost (docs/behaviour.md#mcp). Pure: no I/O.

/** The most characters of a result's JSON, and of its text, before anything is cut. */
export const ANSWER_BUDGET = 40 * 1024;
/** Items of a long list kept when an answer is first cut. */
export const LIST_SHOWN = 100;
/** Characters of a long string kept when cutting lists was not enough. */
export const STRING_SHOWN = 4096;

/** Each try keeps fewer items and characters than the last, until the document fits: lists alone first. */
const CUTS: readonly { list: number; string: number }[] = [
  { list: LIST_SHOWN, string: Infinity },
  { list: LIST_SHOWN, string: STRING_SHOWN },
  { list: 20, string: 1024 },
  { list: 5, string: 256 },
  { list: 1, string: 64 },
];

export interface Elided {
  path: string;
  shown: number;
  total: number;
}

type Json = unknown;

const pathOf = (parent: string, key: string | number) => (typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`);

/** The value with every list over `shown.list` items and every string over `shown.string` characters cut, each cut noted. */
function cut(value: Json, path: string, shown: (typeof CUTS)[number], elided: Elided[]): Json {
  if (typeof value === 'string') {
    if (value.length <= shown.string) return value;
    elided.push({ path, shown: shown.string, total: value.length });
    return value.slice(0, shown.string);
  }
  if (Array.isArray(value)) {
    const kept = value.length > shown.list ? value.slice(0, shown.list) : value;
    if (kept !== value) elided.push({ path, shown: shown.list, total: value.length });
    return kept.map((item, index) => cut(item, pathOf(path, index), shown, elided));
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner, pathOf(path, key), shown, elided)]));
}

/** The document within the budget, and what was cut to keep it there (nothing, for most answers). */
export function boundDocument(document: Record<string, unknown>): { document: Record<string, unknown>; elided: Elided[] } {
  if (JSON.stringify(document).length <= ANSWER_BUDGET) return { document, elided: [] };
  let tried: { document: Record<string, unknown>; elided: Elided[] } = { document, elided: [] };
  for (const shown of CUTS) {
    const elided: Elided[] = [];
    const bounded = { ...(cut(document, '', shown, elided) as Record<string, unknown>), elided };
    tried = { document: bounded, elided };
    // The record of the cuts is part of what the client reads.
    if (JSON.stringify(bounded).length <= ANSWER_BUDGET) break;
  }
  return tried;
}

/** The text within the budget, cut at a line's end, with a last line that says what was cut. */
export function boundText(text: string, elided: readonly Elided[]): string {
  const lists = elided.map((e) => `${e.path} shows ${e.shown} of ${e.total}`).join('; ');
  if (text.length <= ANSWER_BUDGET) return elided.length === 0 ? text : `${text}cut: this answer is bounded (structuredContent: ${lists})\n`;
  const end = text.lastIndexOf('\n', ANSWER_BUDGET);
  const kept = text.slice(0, end > 0 ? end + 1 : ANSWER_BUDGET);
  return `${kept}… cut: this answer is bounded to ${ANSWER_BUDGET / 1024} KiB of text; ${text.length - kept.length} more characters are not shown${lists ? ` (structuredContent: ${lists})` : ''}\n`;
}
