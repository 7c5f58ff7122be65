// The `--json` envelope every command prints (docs/behaviour.md#json), as a zod schema, and its JSON Schema
// derived from it, published beside the message schema as dist/envelope.schema.json and by
// `pushctl schema --envelope`. Loaded only by `pushctl schema` and the tests: printing an envelope
// (output/envelope.ts) needs no zod.
import * as z from 'zod/mini';
// toJSONSchema from zod's core, which scripts/build.mjs keeps out of the file every command loads.
import { toJSONSchema } from 'zod/v4/core';
import '../message/zod-jitless.js';
import { EXIT_MEANINGS, ExitCode } from '../errors.js';

const findingSchema = z.strictObject({
  path: z.string(),
  rule: z.string(),
  message: z.string(),
  fix: z.optional(z.string()),
});

const exitCodes = Object.values(ExitCode);

/** The keys every envelope may carry; commands add their own snake_case keys (message_ids, summary, runs, ...). */
export const envelopeSchema = z.looseObject({
  ok: z.boolean().register(z.globalRegistry, { description: 'true exactly when exit_code is 0' }),
  exit_code: z.literal(exitCodes).register(z.globalRegistry, {
    description: `the exit code: ${exitCodes.map((code) => `${code} ${EXIT_MEANINGS[code]}`).join('; ')}`,
  }),
  errors: z.optional(z.array(findingSchema).register(z.globalRegistry, { description: 'message findings (exit 3): the JSON path, the rule, and a fix where there is one' })),
  warnings: z.optional(z.array(z.union([findingSchema, z.string()])).register(z.globalRegistry, { description: 'message findings, or (config, init) warnings in words' })),
  notes: z.optional(z.array(findingSchema)),
  error: z.optional(
    z.strictObject({
      message: z.string(),
      hint: z.optional(z.string().register(z.globalRegistry, { description: 'the next step' })),
    }),
  ),
});

export function envelopeJsonSchema(): object {
  const generated = toJSONSchema(envelopeSchema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: 'https://pushctl.invalid/envelope.schema.json',
    title: 'pushctl --json output',
    description: 'One document on stdout for every command and every outcome. Commands add their own snake_case keys (message_ids, summary, batches, runs, ...).',
    ...rest,
    // What zod's shapes do not say, as JSON Schema says it: keys are snake_case, `ok` goes with exit 0, and a
    // failure says why (message findings or an error).
    propertyNames: { pattern: '^[a-z][a-z0-9_]*$' },
    allOf: [
      { if: { properties: { ok: { const: true } } }, then: { properties: { exit_code: { const: ExitCode.ok } }, not: { required: ['error'] } } },
      { if: { properties: { ok: { const: false } } }, then: { properties: { exit_code: { not: { const: ExitCode.ok } } }, anyOf: [{ required: ['errors'] }, { required: ['error'] }] } },
    ],
  };
}
