// The likely mistake behind a JSON syntax error, told where its fix goes. A parser stops at the first
// character it cannot take, which is often after the mistake: a missing comma is noticed at the next entry,
// on the next line. People write JSON the way JavaScript allows (comments, single quotes, bare names,
// trailing commas), so those are recognised and named.

/** What the scanner was looking for where the text stopped being JSON: the clue to the likely mistake. */
export type JsonExpectation = 'value' | 'name' | 'colon' | 'comma-or-brace' | 'comma-or-bracket' | 'end' | 'inside';

export interface JsonMistake {
  reason: string;
  /** Where the fix goes (for a missing comma: just after the entry before it). */
  offset: number;
  fix: string;
}

const WS = ' \t\n\r';
const STARTS_ENTRY = /["{[\d\-tfn']/;

/** The mistake at `offset`, where the scanner expected `expected`; undefined when it is no known one. */
export function jsonMistake(text: string, offset: number, expected: JsonExpectation): JsonMistake | undefined {
  const ch = text[offset];
  if (ch === '/' && (text[offset + 1] === '/' || text[offset + 1] === '*')) {
    return { reason: 'a comment', offset, fix: 'JSON has no comments: remove it (from // to the end of the line, or from /* to */)' };
  }
  if (expected.startsWith('comma-or-') && ch !== undefined && STARTS_ENTRY.test(ch)) {
    const end = lastNonSpaceBefore(text, offset) + 1;
    const previous = entryEndingAt(text, end);
    return { reason: 'missing comma', offset: end, fix: `add a comma after ${previous}: JSON needs one between entries` };
  }
  if (ch === "'" && (expected === 'value' || expected === 'name')) {
    const close = text.indexOf("'", offset + 1);
    const newline = text.indexOf('\n', offset);
    const inner = close > offset && (newline === -1 || close < newline) ? text.slice(offset + 1, close) : undefined;
    const example = inner !== undefined && inner.length <= 40 ? `${JSON.stringify(inner)}` : '"text"';
    return { reason: 'single quotes', offset, fix: `JSON strings and names take double quotes: write ${example}` };
  }
  if (expected === 'name' && ch !== undefined && /[A-Za-z_$]/.test(ch)) {
    const name = /^[\w$]+/.exec(text.slice(offset, offset + 60))![0];
    return { reason: 'a name without double quotes', offset, fix: `JSON names take double quotes: write "${name}"` };
  }
  return undefined;
}

function lastNonSpaceBefore(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && WS.includes(text[i]!)) i--;
  return i;
}

/** The entry whose last character is just before `end`, for the hint: `"Hi"`, `2`, `}`. */
function entryEndingAt(text: string, end: number): string {
  const last = text[end - 1];
  if (last === '"') {
    let start = end - 2;
    // The opening quote is the first one before, not itself escaped (an even run of backslashes before it).
    while (start >= 0) {
      if (text[start] === '"') {
        let slashes = 0;
        while (text[start - 1 - slashes] === '\\') slashes++;
        if (slashes % 2 === 0) break;
      }
      start--;
    }
    const entry = text.slice(Math.max(start, 0), end);
    return entry.length <= 40 && !entry.includes('\n') ? entry : 'the string before it';
  }
  if (last === '}' || last === ']') return `the "${last}"`;
  const word = /[\w.+-]+$/.exec(text.slice(Math.max(0, end - 40), end))?.[0];
  return word ?? 'the entry before it';
}
