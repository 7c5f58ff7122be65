// JSON.parse with an error that names the line and column. V8 gives a position for some syntax
// errors and none for others ("Unexpected token"), so on failure a small scanner finds the offset.

import { jsonMistake, type JsonExpectation } from './json-mistake.js';

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    /** The next step, when the mistake is a known one (a trailing comma). */
    readonly fix?: string,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * No push message nests deeper than a handful of levels; the limit keeps the recursive steps after parsing
 * (placeholders, the schema, printing) far from the call-stack limit, whatever the input.
 */
export const MAX_JSON_DEPTH = 64;

export function parseJson(text: string): unknown {
  // A byte-order mark is invisible in editors and not JSON; drop it rather than report it.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const tooDeep = depthExceededAt(source, MAX_JSON_DEPTH);
  if (tooDeep !== -1) {
    const { line, column } = lineAndColumn(source, tooDeep);
    throw new JsonSyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels`, line, column);
  }
  try {
    return JSON.parse(source);
  } catch {
    const { offset, expected } = firstJsonError(source);
    // `{"a": 1,}`: the parser stops at the closing bracket, but the mistake is the comma before it.
    const comma = trailingCommaBefore(source, offset);
    if (comma !== -1) {
      const at = lineAndColumn(source, comma);
      throw new JsonSyntaxError('trailing comma', at.line, at.column, `remove the comma at line ${at.line}, column ${at.column}: JSON allows no comma after the last entry`);
    }
    const mistake = jsonMistake(source, offset, expected);
    if (mistake) {
      const at = lineAndColumn(source, mistake.offset);
      throw new JsonSyntaxError(mistake.reason, at.line, at.column, mistake.fix);
    }
    const { line, column } = lineAndColumn(source, offset);
    const reason = offset >= source.length ? 'unexpected end of JSON' : `unexpected ${JSON.stringify(source[offset])}`;
    throw new JsonSyntaxError(source.trim() === '' ? 'empty input, expected a JSON object' : reason, line, column);
  }
}

/** When the character at `offset` closes an object or array right after a comma, the comma's offset; else -1. */
function trailingCommaBefore(text: string, offset: number): number {
  if (text[offset] !== '}' && text[offset] !== ']') return -1;
  let i = offset - 1;
  while (i >= 0 && ' \t\n\r'.includes(text[i]!)) i--;
  return text[i] === ',' ? i : -1;
}

/** Offset of the first `[` or `{` (outside strings) that opens level `max + 1`, or -1. A loop, not recursion. */
export function depthExceededAt(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return -1;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}


/** Offset of the first character at which `text` stops being valid JSON (its length if it ends early). */
export function firstErrorOffset(text: string): number {
  return firstJsonError(text).offset;
}

/** Where `text` stops being valid JSON, and what was expected there (`inside` a string, number or literal). */
export function firstJsonError(text: string): { offset: number; expected: JsonExpectation } {
  let i = 0;
  const fail = (expected: JsonExpectation): never => {
    throw { offset: i, expected };
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i] === ch) i++; else fail('inside');
  };
  const string = () => {
    try {
      i = jsonStringEnd(text, i);
    } catch (at) {
      i = at as number;
      fail('inside');
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === '-' || match[0] === '') fail('inside');
    i += match![0].length;
  };
  const object = (): void => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') fail('name');
      string();
      ws();
      if (text[i] !== ':') fail('colon');
      i++;
      value();
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === '}') return void i++;
      fail('comma-or-brace');
    }
  };
  const array = (): void => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === ']') return void i++;
      fail('comma-or-bracket');
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail('value');
  };
  try {
    value();
    ws();
    return { offset: i < text.length ? i : text.length, expected: 'end' };
  } catch (error) {
    return typeof error === 'object' && error !== null && 'offset' in error ? (error as { offset: number; expected: JsonExpectation }) : { offset: 0, expected: 'value' };
  }
}

/**
 * Where the JSON string whose opening quote is at `start` ends: the offset just past its closing quote.
 * Throws the offset of the first character that makes it invalid (a control character, a bad escape, the
 * end of the text). The one string scanner of the message module: firstErrorOffset and json-position use it.
 */
export function jsonStringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return i + 1;
    if (ch < ' ') throw i;
    if (ch !== '\\') {
      i++;
      continue;
    }
    const esc = text[i + 1];
    if (esc === 'u') {
      for (let k = 2; k <= 5; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) throw i + k;
      i += 6;
    } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
    else throw i + 1;
  }
  throw i;
}
