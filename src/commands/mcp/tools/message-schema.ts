// message_schema: the message file's JSON Schema, as `pushctl schema` prints it, on demand. The tools that take a
// message show only its outline (schema-outline.ts), so that tools/list stays small in every session.
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { ExitCode } from '../../../errors.js';
import { messageJsonSchema } from '../../../message/json-schema.js';
import { schemaOutputSchema } from '../output-schemas.js';
import { defineTool } from '../tool.js';

const args = z.strictObject({});

export const messageSchemaTool = defineTool({
  name: 'message_schema',
  title: "The message's JSON Schema",
  description:
    "The whole JSON Schema (draft 2020-12) of the `message` object that validate_message, dry_run and send_message take, as `pushctl schema` prints it: every field, the country codes, patterns and which fields each condition type requires. Those tools' inputSchema shows the message's outline only.",
  args,
  result: schemaOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  run() {
    const schema = messageJsonSchema();
    return Promise.resolve({ document: { ok: true, exit_code: ExitCode.ok, schema }, text: '', verbatim: `${JSON.stringify(schema)}\n`, isError: false });
  },
});
