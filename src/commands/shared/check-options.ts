// Each command's options are checked by one schema (zod/mini, as the message schema): the first problem is
// a usage error (exit 2) naming the flag, the range and an example. A schema's messages are written
// "<what is wrong>: <the next step>"; the value given is added to the first half unless the check named it.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { usageError } from '../../errors.js';

/** The options as the schema gives them (numbers parsed, defaults filled); the first problem is a usage error. */
export function parseOptions<T>(schema: z.ZodMiniType<T>, options: unknown): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const text = issue?.message ?? 'an option is invalid: see --help';
  const at = text.indexOf(': ');
  const [message, hint] = at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 2)];
  // A check of our own (wholeNumberFlag) names the value in its message already.
  if (issue?.code === 'custom') throw usageError(message, hint);
  const given = typeof options === 'object' && options !== null ? Object.entries(options).find(([key]) => key === String(issue?.path[0]))?.[1] : undefined;
  throw usageError(`${message}, got ${String(given)}`, hint);
}

export function checkOptions<T>(schema: z.ZodMiniType<T>, options: unknown): void {
  parseOptions(schema, options);
}

/** A whole number from `min` to `max` for `--<flag>`, with an example of a good value. */
export function wholeNumber(flag: string, min: number, max: number, example: string) {
  const text = `--${flag} must be a whole number from ${min} to ${max}: for example ${example}`;
  return z.int().check(z.minimum(min, text), z.maximum(max, text));
}

/**
 * A whole-number flag within `[min, max]`, given as commander gives it (text) or as a number. Every numeric
 * flag has a range: past it a value is a typo, and unchecked it reaches code that cannot hold it (a typed
 * array sized by --rate, a timer). The GitHub Action's inputs go through the same check.
 */
export function wholeNumberFlag(flag: string, min: number, max: number, why?: string) {
  return z.pipe(
    z.union([z.string(), z.number()]),
    z.transform((value, ctx) => {
      const text = String(value).trim();
      // A negative number is whole, only out of range: said as such.
      const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isNaN(n)) ctx.issues.push({ code: 'custom', input: value, message: `${flag} ${JSON.stringify(String(value))} is not a whole number: e.g. ${flag} ${Math.max(min, 1)}` });
      else if (n < min || n > max) ctx.issues.push({ code: 'custom', input: value, message: `${flag} ${text} is out of range: use ${min} to ${max}${why ? ` (${why})` : ''}` });
      else return n;
      return z.NEVER;
    }),
  );
}

/**
 * The path of a file pushctl writes and keeps (`--report`, `--journal`, `--record`, init's `--config`), as
 * `--<flag>` takes it. "-" is stdin where pushctl reads (`-f -`) and stdout for `schema --output`; here it
 * would make a file named "-" in the working directory, which nobody asking for stdout means: refused.
 */
export function keptFile<T>(schema: z.ZodMiniType<T>, flag: string, what: string, example: string): z.ZodMiniType<T> {
  return notDash(schema, `${flag} - would write ${what} to a file named "-"`, `give ${flag} the file's path, e.g. ${flag} ${example}`);
}

/**
 * The path of a file pushctl reads only from a path (`--config`, `--app-secret-file`, serve's `--apps` and
 * `--devices`): "-" would be looked for as a file named "-" and reported missing, though the user meant stdin.
 */
export function pathOnly<T>(schema: z.ZodMiniType<T>, flag: string, what: string, example: string, stdin?: string): z.ZodMiniType<T> {
  return notDash(schema, `${flag} - would read ${what} from stdin, which ${flag} does not take`, `give ${flag} the file's path, e.g. ${flag} ${example}${stdin ? `, or ${stdin}` : ''}`);
}

function notDash<T>(schema: z.ZodMiniType<T>, problem: string, next: string): z.ZodMiniType<T> {
  return schema.check(z.refine((value) => value !== '-', { message: `${problem}: ${next}` }));
}
