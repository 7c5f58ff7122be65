// The one `--json` envelope of every command (docs/behaviour.md#json): `ok` and `exit_code` first, snake_case keys.

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The same value with every object key in snake_case (arrays and nested objects included). */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snake(key), snakeKeys(inner)]));
}

/** `{ ok, exit_code, ...body }` as the text a command prints. */
export function envelopeText(exitCode: number, body: object): string {
  return `${JSON.stringify({ ok: exitCode === 0, exit_code: exitCode, ...body }, null, 2)}\n`;
}
