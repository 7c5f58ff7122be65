// The kinds of value most flags take, one schema instance each. Schemas are immutable, so every command's
// options share them: zod builds each instance at load (send's options are about half of the schemas it
// builds on every run), and an instance per field would be start-up time spent on copies.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';

/** A flag that takes no value (`--json`, `--no-wait`). */
export const optionalFlag = z.optional(z.boolean());
/** A flag that takes one value, as commander gives it: text. */
export const optionalText = z.optional(z.string());
/** A repeatable flag, or a variadic one (`--client-id a b`): commander gives a list. */
export const optionalList = z.optional(z.array(z.string()));

/** The record schema an ownKeyRecord checks with: the JSON Schema a client is shown (commands/mcp/json-schemas.ts). */
const recordOf = new WeakMap<object, z.ZodMiniType>();
export const recordBehind = (schema: object): z.ZodMiniType | undefined => recordOf.get(schema);

/**
 * An object of string keys given whole (an MCP call's `message`, `data`, `vars`), each value checked by `values`,
 * and kept as given. zod's record skips a `__proto__` key (message/own-key.ts says why), which pushctl reads as
 * an ordinary key: a data entry of that name vanished, and a message's `__proto__` field was never refused as
 * unknown. The record still checks it, so an issue has the record's words and path.
 */
export function ownKeyRecord<V>(values: z.ZodMiniType<V>): z.ZodMiniType<Record<string, V>> {
  const record = z.record(z.string(), values);
  const schema = z.custom<Record<string, V>>().check(
    z.superRefine((given, ctx) => {
      const checked = record.safeParse(given);
      if (checked.success) return;
      // A value's issue as the record gave it (code, path, expected): the caller words it as it words any other.
      for (const issue of checked.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    }),
  );
  recordOf.set(schema, record);
  return schema;
}
