// The envelope's JSON Schema is derived from its zod schema and the exit codes defined once in errors.ts.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ExitCode, EXIT_MEANINGS, exitMeaning } from '../../../src/errors.js';
import { envelopeJsonSchema, envelopeSchema } from '../../../src/output/envelope-schema.js';

const schema = envelopeJsonSchema() as { properties: { exit_code: { enum: number[] } } };
const valid = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('the --json envelope schema', () => {
  it('lists exactly the exit codes of errors.ts, each with its meaning', () => {
    expect(schema.properties.exit_code.enum).toEqual(Object.values(ExitCode));
    expect(Object.keys(EXIT_MEANINGS).map(Number).sort((a, b) => a - b)).toEqual(Object.values(ExitCode));
    expect(exitMeaning(7)).toContain('partly failed');
    expect(exitMeaning(42)).toBeUndefined();
  });

  it.each([
    ['a success', { ok: true, exit_code: 0, message_ids: ['m-1'] }, true],
    ['a usage error', { ok: false, exit_code: 2, error: { message: 'unknown option', hint: 'run pushctl --help' } }, true],
    ['invalid message findings', { ok: false, exit_code: 3, errors: [{ path: 'type', rule: 'type', message: 'must be 1 or 2' }] }, true],
    ['ok with a failing exit code', { ok: true, exit_code: 2 }, false],
    ['a failure that says nothing', { ok: false, exit_code: 5 }, false],
    ['an exit code pushctl never gives', { ok: false, exit_code: 9, error: { message: 'x' } }, false],
    ['a camelCase key', { ok: true, exit_code: 0, messageIds: [] }, false],
    ['a finding without its rule', { ok: false, exit_code: 3, errors: [{ path: 'type', message: 'x' }] }, false],
  ])('%s → %s', (_name, document, expected) => {
    expect(valid(document), JSON.stringify(valid.errors)).toBe(expected);
  });

  it('the zod schema and its JSON Schema agree on the shapes zod states', () => {
    expect(envelopeSchema.safeParse({ ok: false, exit_code: 2, error: { message: 'x' } }).success).toBe(true);
    expect(envelopeSchema.safeParse({ ok: false, exit_code: 9, error: { message: 'x' } }).success).toBe(false);
  });
});
