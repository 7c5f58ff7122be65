// The options of `pushctl schema`, checked by one schema.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';

export const schemaOptionsSchema = z.object({
  /** Write the schema to this file instead of stdout ("-" = stdout). */
  output: z.optional(z.string()),
  /** The schema of the `--json` envelope instead of the message's. */
  envelope: z.optional(z.boolean()),
});

export type SchemaOptions = z.infer<typeof schemaOptionsSchema>;
