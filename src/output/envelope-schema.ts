// The JSON Schema of the `--json` envelope every command prints (docs/behaviour.md#json), published beside the
// message schema as dist/envelope.schema.json and by `pushctl schema --envelope`.

const finding = {
  type: 'object',
  required: ['path', 'rule', 'message'],
  properties: { path: { type: 'string' }, rule: { type: 'string' }, message: { type: 'string' }, fix: { type: 'string' } },
  additionalProperties: false,
};

export function envelopeJsonSchema(): object {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://pushctl.invalid/envelope.schema.json',
    title: 'pushctl --json output',
    description: 'One document on stdout for every command and every outcome. Commands add their own snake_case keys (message_ids, summary, batches, runs, ...).',
    type: 'object',
    required: ['ok', 'exit_code'],
    properties: {
      ok: { type: 'boolean', description: 'true exactly when exit_code is 0' },
      exit_code: { type: 'integer', enum: [0, 1, 2, 3, 4, 5, 6, 7, 130], description: 'the exit code, as in the README table' },
      errors: { type: 'array', items: finding, description: 'message findings (exit 3): the JSON path, the rule, and a fix where there is one' },
      warnings: { type: 'array', items: { anyOf: [finding, { type: 'string' }] }, description: 'message findings, or (config, init) warnings in words' },
      notes: { type: 'array', items: finding },
      error: {
        type: 'object',
        required: ['message'],
        properties: { message: { type: 'string' }, hint: { type: 'string', description: 'the next step' } },
        additionalProperties: false,
      },
    },
    propertyNames: { pattern: '^[a-z][a-z0-9_]*$' },
    allOf: [
      { if: { properties: { ok: { const: true } } }, then: { properties: { exit_code: { const: 0 } }, not: { required: ['error'] } } },
      { if: { properties: { ok: { const: false } } }, then: { properties: { exit_code: { not: { const: 0 } } }, anyOf: [{ required: ['errors'] }, { required: ['error'] }] } },
    ],
  };
}
