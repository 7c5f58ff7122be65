// JSON.parse with an error that names the line and column. V8 gives a position for some syntax
// errors and none for others ("Unexpected token"), so on failure a small scanner finds the offset.

export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
  }
}

export function parseJson(text: string): unknown {
  // A byte-order mark is invisible in editors and not JSON; drop it rather than report it.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch {
    const offset = firstErrorOffset(source);
    const { line, column } = lineAndColumn(source, offset);
    const reason = offset >= source.length ? 'unexpected end of JSON' : `unexpected ${JSON.stringify(source[offset])}`;
    throw new JsonSyntaxError(source.trim() === '' ? 'empty input, expected a JSON object' : reason, line, column);
  }
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
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i] === ch) i++; else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '"') return void i++;
      if (ch < ' ') fail();
      if (ch === '\\') {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) { i += k; fail(); }
          i += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail();
      } else i++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === '-' || match[0] === '') fail();
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') return void i++;
        fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') return void i++;
        fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (offset) {
    return typeof offset === 'number' ? offset : 0;
  }
}
