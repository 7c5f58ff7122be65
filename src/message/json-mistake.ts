// The likely mistake behind a JSON syntax error, told where its fix goes. A parser stops at the first
// character it cannot take, which is often after the mistake: a missing comma is noticed at the next entry,
// on the next line. People write JSON the way JavaScript allows (comments, single quotes, bare names,
// trailing commas), so those are recognised and named.
import type { ParseError } from 'jsonc-parser/lib/esm/main.js';

export interface JsonMistake {
  reason: string;
  /** Where the fix goes (for a missing comma: just after the entry before it). */
  offset: number;
  fix: (at: { line: number; column: number }) => string;
}

// jsonc-parser's ParseErrorCode values (a const enum, which an isolated module cannot read).
const PROPERTY_NAME_EXPECTED = 3;
const COMMA_EXPECTED = 6;
const INVALID_COMMENT = 10;
const STARTS_ENTRY = /["{[\d\-tfn']/;

/** The mistake behind `first` (`second` is the error after it); undefined when it is no known one. */
export function jsonMistake(text: string, first: ParseError, second?: ParseError): JsonMistake | undefined {
  const { offset } = first;
  const ch = text[offset];
  const end = text.slice(0, offset).trimEnd().length;
  // `{"a": 1,}`: the parser stops at the closing bracket, but the mistake is the comma before it.
  if ((ch === '}' || ch === ']') && text[end - 1] === ',') {
    return { reason: 'trailing comma', offset: end - 1, fix: (at) => `remove the comma at line ${at.line}, column ${at.column}: JSON allows no comma after the last entry` };
  }
  if (first.error === INVALID_COMMENT) {
    return { reason: 'a comment', offset, fix: () => 'JSON has no comments: remove it (from // to the end of the line, or from /* to */)' };
  }
  if (first.error === COMMA_EXPECTED && ch !== undefined && STARTS_ENTRY.test(ch)) {
    const previous = entryEndingAt(text, end);
    return { reason: 'missing comma', offset: end, fix: () => `add a comma after ${previous}: JSON needs one between entries` };
  }
  if (ch === "'") {
    const inner = /^'([^'\n]{0,40})'/.exec(text.slice(offset, offset + 43))?.[1];
    return { reason: 'single quotes', offset, fix: () => `JSON strings and names take double quotes: write ${inner !== undefined ? JSON.stringify(inner) : '"text"'}` };
  }
  if (second?.error === PROPERTY_NAME_EXPECTED && ch !== undefined && /[A-Za-z_$]/.test(ch)) {
    const name = /^[\w$]+/.exec(text.slice(offset, offset + 60))![0];
    return { reason: 'a name without double quotes', offset, fix: () => `JSON names take double quotes: write "${name}"` };
  }
  return undefined;
}

/** The entry whose last character is just before `end`, for the hint: `"Hi"`, `2`, `}`. */
function entryEndingAt(text: string, end: number): string {
  const last = text[end - 1];
  if (last === '"') {
    // The opening quote is the first one before, not itself escaped (an even run of backslashes before it);
    // an entry longer than 40 characters is not worth quoting.
    const limit = Math.max(0, end - 40);
    let start = end - 2;
    while (start >= limit && (text[start] !== '"' || /(^|[^\\])(\\\\)*\\$/.test(text.slice(limit, start)))) start--;
    const entry = text.slice(start, end);
    return start >= limit && !entry.includes('\n') ? entry : 'the string before it';
  }
  if (last === '}' || last === ']') return `the "${last}"`;
  const word = /[\w.+-]+$/.exec(text.slice(Math.max(0, end - 40), end))?.[0];
  return word ?? 'the entry before it';
}
