// Where a value sits in a JSON text, by the path the validator reports (`condition.targeting.country[2]`),
// so CI annotations can point at the offending line and column of the message file.
import { MAX_JSON_DEPTH, lineAndColumn, scanJson, withoutBom } from './parse-json.js';

export interface JsonPosition {
  line: number;
  column: number;
  /** True when the path itself is absent (a required field) and this is its nearest enclosing value. */
  enclosing: boolean;
}

/** `a.b[2]["x y"]` → `['a', 'b', 2, 'x y']`; the inverse of message/issues.ts formatPath. */
export function parseIssuePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const pattern = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([A-Za-z_$][\w$]*)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < path.length && (match = pattern.exec(path)) !== null) {
    if (match[1] !== undefined) parts.push(Number(match[1]));
    else if (match[2] !== undefined) parts.push(JSON.parse(match[2]) as string);
    else parts.push(match[3]!);
  }
  return parts;
}

/**
 * The position of the value at `path` in `text` (valid JSON), or of its nearest existing ancestor when the
 * value is missing; undefined when `text` is not a JSON document that parses.
 */
export function jsonPathPosition(text: string, path: string): JsonPosition | undefined {
  const source = withoutBom(text);
  const want = parseIssuePath(path);
  // By path as a JSON array string; a later duplicate key wins, as in JSON.parse.
  const offsets = new Map<string, number>();
  const scan = scanJson(source, MAX_JSON_DEPTH, (at, offset) => offsets.set(JSON.stringify(at), offset));
  if (scan.errors.length > 0 || scan.tooDeep !== undefined) return undefined;
  for (let depth = want.length; depth >= 0; depth--) {
    const offset = offsets.get(JSON.stringify(want.slice(0, depth)));
    if (offset !== undefined) return { ...lineAndColumn(source, offset), enclosing: depth < want.length };
  }
  return undefined;
}
