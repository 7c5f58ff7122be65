// Where a value sits in a JSON text, by the path the validator reports (`condition.targeting.country[2]`),
// so CI annotations can point at the offending line and column of the message file.
import type { Node, ParseError } from 'jsonc-parser/lib/esm/main.js';
import { MAX_JSON_DEPTH, jsonErrors, lineAndColumn, parseTree, withoutBom } from './parse-json.js';

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

/** The value under `key`: the last entry of that name, as JSON.parse keeps the last of duplicate keys. */
function child(node: Node, key: string | number): Node | undefined {
  if (node.type === 'array') return typeof key === 'number' ? node.children?.[key] : undefined;
  return node.children?.findLast((entry) => entry.children?.[0]?.value === key)?.children?.[1];
}

/**
 * The position of the value at `path` in `text` (valid JSON), or of its nearest existing ancestor when the
 * value is missing; undefined when `text` is not a JSON document that parses.
 */
export function jsonPathPosition(text: string, path: string): JsonPosition | undefined {
  const source = withoutBom(text);
  const { errors, tooDeep } = jsonErrors(source, MAX_JSON_DEPTH);
  const parseErrors: ParseError[] = [];
  let node = errors.length === 0 && tooDeep === undefined ? parseTree(source, parseErrors) : undefined;
  if (!node || parseErrors.length > 0) return undefined;
  const want = parseIssuePath(path);
  let depth = 0;
  for (let next; depth < want.length && (next = child(node, want[depth]!)); depth++) node = next;
  return { ...lineAndColumn(source, node.offset), enclosing: depth < want.length };
}
