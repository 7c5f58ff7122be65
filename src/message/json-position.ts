// Where a value sits in a JSON text, by the path the validator reports (`condition.targeting.country[2]`),
// so CI annotations can point at the offending line and column of the message file.
import { jsonStringEnd, lineAndColumn } from './parse-json.js';

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
 * value is missing; undefined when `text` is not a JSON document this scanner can walk.
 */
export function jsonPathPosition(text: string, path: string): JsonPosition | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const want = parseIssuePath(path);
  const offsets = new Map<string, number>();
  try {
    walk(source, (keyPath, offset) => offsets.set(keyPath, offset));
  } catch {
    return undefined;
  }
  for (let depth = want.length; depth >= 0; depth--) {
    const offset = offsets.get(JSON.stringify(want.slice(0, depth)));
    if (offset !== undefined) return { ...lineAndColumn(source, offset), enclosing: depth < want.length };
  }
  return undefined;
}

/** Calls `visit` with each value's path (as a JSON array string) and offset; throws on malformed input. */
function walk(text: string, visit: (path: string, offset: number) => void): void {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    try {
      i = jsonStringEnd(text, i);
    } catch {
      throw new Error('unterminated string');
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: (string | number)[]): void => {
    ws();
    visit(JSON.stringify(path), i);
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (let index = 0; ; index++) {
        ws();
        let key: string | number = index;
        if (ch === '{') {
          if (text[i] !== '"') throw new Error('expected a key');
          key = string();
          ws();
          if (text[i++] !== ':') throw new Error('expected ":"');
        }
        value([...path, key]);
        ws();
        const next = text[i++];
        if (next === close) return;
        if (next !== ',') throw new Error('expected "," or a closing bracket');
      }
    }
    if (ch === '"') return void string();
    const match = /^(true|false|null|-?\d[\d.eE+-]*)/.exec(text.slice(i, i + 400));
    if (!match) throw new Error('unexpected character');
    i += match[0].length;
  };
  value([]);
}
