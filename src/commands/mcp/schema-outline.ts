// The message's schema as a tool's input shows it: its shape (fields, types, what is required, short choices,
// descriptions) without the rules a checker needs and a model does not read (a 249-code country list and its
// any-case pattern, a language pattern, conditional requirements). tools/list is read into every session's
// context: the message file's schema whole, in three tools, was 23 of its 59 kB. The whole schema is one call
// away (message_schema), and validate_message's findings give each broken rule its path and fix. Only keywords
// are dropped, so the outline accepts every message the whole schema accepts. Pure.
import type { JsonSchema } from '../../message/json-schema.js';

/** A choice list longer than this is a rule for a checker, not a choice to read. */
const MAX_ENUM = 8;

/** Keywords kept as they are; `properties`, `items` and `additionalProperties` are outlined in turn. */
const KEPT = new Set(['type', 'description', 'required', 'const', 'additionalProperties']);

export function outlineSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [name, outlineSchema(inner)]));
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) out[key] = outlineSchema(value as JsonSchema);
    else if (key === 'enum' && (value as unknown[]).length <= MAX_ENUM) out.enum = value;
    else if (KEPT.has(key)) out[key] = value;
  }
  return out;
}
