// JSON.parse with an error that names the line and column and, for the usual mistakes, where the fix goes.
// jsonc-parser finds the first error (V8 gives a position for some errors and none for others); JSON.parse
// still makes the value, so `__proto__` stays an own key as in any JSON document.
// The one door to jsonc-parser: the CLI's files take this module from main.cjs (scripts/build.mjs FROM_MAIN),
// so the package carries one copy of the parser.
import { visit, type JSONPath, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { jsonMistake } from './json-mistake.js';

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

/** A byte-order mark is invisible in editors and not JSON; it is dropped rather than reported. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

export function parseJson(text: string): unknown {
  const source = withoutBom(text);
  const { errors, tooDeep } = jsonErrors(source, MAX_JSON_DEPTH);
  const first = errors[0];
  if (first) {
    const mistake = jsonMistake(source, first, errors[1]);
    const at = lineAndColumn(source, mistake?.offset ?? first.offset);
    if (mistake) throw new JsonSyntaxError(mistake.reason, at.line, at.column, mistake.fix(at));
    const reason = first.offset >= source.length ? 'unexpected end of JSON' : `unexpected ${JSON.stringify(source.slice(first.offset, first.offset + Math.max(first.length, 1)))}`;
    throw new JsonSyntaxError(source.trim() === '' ? 'empty input, expected a JSON object' : reason, at.line, at.column);
  }
  if (tooDeep !== undefined) {
    const { line, column } = lineAndColumn(source, tooDeep);
    throw new JsonSyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels`, line, column);
  }
  return JSON.parse(source);
}

/**
 * The first two syntax errors of `text` (the second tells a bare name from a bare value), and the offset of
 * the first `[` or `{` that opens level `maxDepth + 1`. The walk stops there, so no input nests it deep.
 */
export function jsonErrors(text: string, maxDepth = 1000): { errors: ParseError[]; tooDeep?: number } {
  const errors: ParseError[] = [];
  let depth = 0;
  let tooDeep: number | undefined;
  const stop = new Error('stop');
  const open = (offset: number) => {
    if (++depth <= maxDepth) return;
    tooDeep = offset;
    throw stop;
  };
  const close = () => void depth--;
  try {
    visit(
      text,
      {
        onObjectBegin: open,
        onArrayBegin: open,
        onObjectEnd: close,
        onArrayEnd: close,
        onError: (error, offset, length) => {
          if (errors.push({ error, offset, length }) === 2) throw stop;
        },
      },
      { disallowComments: true, allowTrailingComma: false },
    );
  } catch (error) {
    if (error !== stop) throw error;
  }
  return { errors, tooDeep };
}

/**
 * Calls `found` with the path, offset and length of every value of `text` (a container's length is 1: its
 * opening bracket), in document order; false, and the walk stopped, at the first syntax error or at a level
 * deeper than `maxDepth`, so no input nests the walk deep.
 */
export function walkJson(text: string, found: (path: JSONPath, offset: number, length: number) => void, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  const stop = new Error('stop');
  const open = (offset: number, length: number, _line: number, _column: number, path: () => JSONPath) => {
    if (++depth > maxDepth) throw stop;
    found(path(), offset, length);
  };
  const close = () => void depth--;
  try {
    visit(text, {
      onObjectBegin: open,
      onArrayBegin: open,
      onObjectEnd: close,
      onArrayEnd: close,
      onLiteralValue: (_value, offset, length, _line, _column, path) => found(path(), offset, length),
      onError: () => {
        throw stop;
      },
    }, { disallowComments: true, allowTrailingComma: false });
  } catch (error) {
    if (error !== stop) throw error;
    return false;
  }
  return true;
}

/** Offset of the first character at which `text` stops being valid JSON (its length if it is valid). */
export function firstErrorOffset(text: string): number {
  return jsonErrors(text).errors[0]?.offset ?? text.length;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
