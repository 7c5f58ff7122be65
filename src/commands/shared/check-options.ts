// Each command's options are checked by one schema (zod/mini, as the message schema): the first problem is
// a usage error (exit 2) naming the flag, the range and an example. A schema's messages are written
// "<what is wrong>: <the next step>"; the value given is added to the first half.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { usageError } from '../../errors.js';

export function checkOptions<T>(schema: z.ZodMiniType<T>, options: unknown): void {
  const parsed = schema.safeParse(options);
  if (parsed.success) return;
  const [issue] = parsed.error.issues;
  const text = issue?.message ?? 'an option is invalid: see --help';
  const at = text.indexOf(': ');
  const [message, hint] = at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 2)];
  const given = (options as Record<string, unknown>)[String(issue?.path[0])];
  throw usageError(`${message}, got ${String(given)}`, hint);
}

/** A whole number from `min` to `max` for `--<flag>`, with an example of a good value. */
export function wholeNumber(flag: string, min: number, max: number, example: string) {
  const text = `--${flag} must be a whole number from ${min} to ${max}: for example ${example}`;
  return z.int().check(z.minimum(min, text), z.maximum(max, text));
}
