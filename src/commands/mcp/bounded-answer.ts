// A tool's answer kept to a size a client reads. The SDK's client gives up on a line over 10 MiB and closes the
// connection, and a model reads far less: validate_message of 600,000 client IDs echoed them twice (20 MB), and
// the session was gone. An answer within the bound is the CLI's --json document untouched (one truth); a larger
// one keeps the first items of each long list and the start of each long string, and says what it cut under
// `elided` (path, shown, total), so a count is never lost (docs/behaviour.md#mcp). Pure: no I/O.

/** The most characters of a result's JSON, and of its text, before anything is cut. */
export const ANSWER_BUDGET = 1024 * 1024;
/** Items of a long list kept when an answer is cut. */
export const LIST_SHOWN = 100;
/** Characters of a long string kept when cutting lists was not enough. */
export const STRING_SHOWN = 4096;

export interface Elided {
  path: string;
  shown: number;
  total: number;
}

type Json = unknown;

const pathOf = (parent: string, key: string | number) => (typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`);

/** The value with every list over LIST_SHOWN items (or, `strings`, every string over STRING_SHOWN) cut, each cut noted. */
function cut(value: Json, path: string, strings: boolean, elided: Elided[]): Json {
  if (typeof value === 'string') {
    if (!strings || value.length <= STRING_SHOWN) return value;
    elided.push({ path, shown: STRING_SHOWN, total: value.length });
    return value.slice(0, STRING_SHOWN);
  }
  if (Array.isArray(value)) {
    const kept = value.length > LIST_SHOWN ? value.slice(0, LIST_SHOWN) : value;
    if (kept !== value) elided.push({ path, shown: LIST_SHOWN, total: value.length });
    return kept.map((item, index) => cut(item, pathOf(path, index), strings, elided));
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner, pathOf(path, key), strings, elided)]));
}

/** The document within the budget, and what was cut to keep it there (nothing, for most answers). */
export function boundDocument(document: Record<string, unknown>): { document: Record<string, unknown>; elided: Elided[] } {
  if (JSON.stringify(document).length <= ANSWER_BUDGET) return { document, elided: [] };
  let elided: Elided[] = [];
  let bounded = cut(document, '', false, elided) as Record<string, unknown>;
  if (JSON.stringify(bounded).length > ANSWER_BUDGET) {
    elided = [];
    bounded = cut(document, '', true, elided) as Record<string, unknown>;
  }
  return { document: { ...bounded, elided }, elided };
}

/** The text within the budget, cut at a line's end, with a last line that says what was cut. */
export function boundText(text: string, elided: readonly Elided[]): string {
  const lists = elided.map((e) => `${e.path} shows ${e.shown} of ${e.total}`).join('; ');
  if (text.length <= ANSWER_BUDGET) return elided.length === 0 ? text : `${text}cut: this answer is bounded (structuredContent: ${lists})\n`;
  const end = text.lastIndexOf('\n', ANSWER_BUDGET);
  const kept = text.slice(0, end > 0 ? end + 1 : ANSWER_BUDGET);
  return `${kept}… cut: this answer is bounded to ${ANSWER_BUDGET / 1024} KiB of text; ${text.length - kept.length} more characters are not shown${lists ? ` (structuredContent: ${lists})` : ''}\n`;
}
