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
