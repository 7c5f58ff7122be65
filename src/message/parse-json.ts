// JSON.parse with an error that names the line and column and, for the usual mistakes, where the fix goes.
// jsonc-parser finds the first error (V8 gives a position for some errors and none for others); JSON.parse
// still makes the value, so `__proto__` stays an own key as in any JSON document.
//
// The one door to jsonc-parser: the CLI's files that read JSON require this module's own file (json.cjs,
// scripts/build.mjs SHARED_MODULES), so the package carries one copy of the parser and `--help` loads
// none. Its ES module build, by path: the package's `main` is a UMD wrapper whose require() calls a bundler
// cannot follow; and its parser module alone, since the entry also loads the formatter, which builds tables
// of indentation strings at load (a fifth of the file, for nothing pushctl does).
import type { JSONPath, JSONVisitor, ParseError } from 'jsonc-parser/lib/esm/main.js';
import { visit } from 'jsonc-parser/lib/esm/impl/parser.js';
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
  // Most input is valid JSON, which JSON.parse (native) takes at once; jsonc-parser's scan, whose first run
  // compiles its whole scanner (2 ms of a `validate` on Node 20), runs only to say where a mistake is.
  const value = parsedOrFailed(source);
  if (value !== FAILED && withinDepth(value, MAX_JSON_DEPTH)) return value;
  const { errors, tooDeep } = scanJson(source);
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

const FAILED = Symbol('not JSON');

function parsedOrFailed(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return FAILED;
  }
}

/** Whether no array or object in `value` opens level `maxDepth + 1` (the top one is level 1), as scanJson counts. */
function withinDepth(value: unknown, maxDepth: number): boolean {
  // A loop over a list of containers, not recursion: the value may nest deeper than the call stack.
  let level: object[] = typeof value === 'object' && value !== null ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > maxDepth) return false;
    const next: object[] = [];
    for (const container of level) {
      for (const item of Array.isArray(container) ? container : Object.values(container)) if (typeof item === 'object' && item !== null) next.push(item);
    }
    level = next;
  }
  return true;
}

export interface JsonScan {
  /** The first two syntax errors: the second tells a bare name from a bare value. */
  errors: ParseError[];
  /** The offset of the first `[` or `{` that opens level `maxDepth + 1`. */
  tooDeep?: number;
}

/**
 * One walk of `text`, which stops at the second syntax error or past `maxDepth`, so no input nests it deep.
 * `found` gets the path, offset and length of every value (a container's length is 1: its opening bracket),
 * in document order.
 */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH, found?: (path: JSONPath, offset: number, length: number) => void): JsonScan {
  const scan: JsonScan = { errors: [] };
  let depth = 0;
  const stop = new Error('stop');
  const open = (offset: number, length: number, _line: number, _column: number, path: () => JSONPath) => {
    if (++depth > maxDepth) {
      scan.tooDeep = offset;
      throw stop;
    }
    found?.(path(), offset, length);
  };
  const close = () => void depth--;
  const visitor: JSONVisitor = { onObjectBegin: open, onArrayBegin: open, onObjectEnd: close, onArrayEnd: close };
  if (found) visitor.onLiteralValue = (_value, offset, length, _line, _column, path) => found(path(), offset, length);
  visitor.onError = (error, offset, length) => {
    if (scan.errors.push({ error, offset, length }) === 2) throw stop;
  };
  try {
    visit(text, visitor, { disallowComments: true, allowTrailingComma: false });
  } catch (error) {
    if (error !== stop) throw error;
  }
  return scan;
}

/** Offset of the first character at which `text` stops being valid JSON (its length if it is valid). */
export function firstErrorOffset(text: string): number {
  return scanJson(text, 1000).errors[0]?.offset ?? text.length;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** A key an object of the text gives more than once, by its path, with the (1-based) line of each. */
export interface DuplicateKey {
  path: (string | number)[];
  lines: number[];
}

/**
 * The keys given twice in one object of `text` (valid JSON), which JSON.parse resolves silently to the last.
 * `value`, the parse of `text`, makes the usual case cost one regular expression: only when the text names
 * more keys than the value holds is it walked again, to find them.
 */
export function duplicateKeys(text: string, value: unknown): DuplicateKey[] {
  // In valid JSON a string followed by a colon is a key, and nothing else is.
  const named = text.match(/"(?:[^"\\]|\\.)*"\s*:/g)?.length ?? 0;
  if (named === keysIn(value)) return [];
  const objects: Map<string, number[]>[] = [];
  const found: DuplicateKey[] = [];
  const visitor: JSONVisitor = {
    onObjectBegin: () => void objects.push(new Map()),
    onObjectEnd: () => void objects.pop(),
    onObjectProperty: (property, _offset, _length, line, _column, path) => {
      const seen = objects[objects.length - 1]!;
      const lines = seen.get(property) ?? [];
      // Found at its second mention; the list of lines it holds grows with any later one.
      if (lines.length === 1) found.push({ path: [...path(), property], lines });
      lines.push(line + 1);
      seen.set(property, lines);
    },
  };
  visit(withoutBom(text), visitor, { disallowComments: true, allowTrailingComma: false });
  return found;
}

/** How many keys the objects of a parsed value hold, all levels together (a loop: it may nest deep). */
function keysIn(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (!Array.isArray(item)) count += Object.keys(item).length;
    stack.push(...Object.values(item));
  }
  return count;
}
