// The tools' JSON Schemas come from the zod schemas they check with, the message file's schema included;
// the arguments map onto the CLI's own options; a bad argument is a usage error naming it.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../src/errors.js';
import { messageJsonSchema } from '../../../src/message/json-schema.js';
import { parseArguments } from '../../../src/commands/mcp/arguments.js';
import { argumentNames, describeTool, TOOLS } from '../../../src/commands/mcp/catalog.js';
import { messageInputOptions } from '../../../src/commands/mcp/message-arguments.js';
import { outlineSchema } from '../../../src/commands/mcp/schema-outline.js';
import { errorAnswer } from '../../../src/commands/mcp/results.js';
import { validateMessageTool } from '../../../src/commands/mcp/tools/validate-message.js';
import { listRunsTool } from '../../../src/commands/mcp/tools/list-runs.js';
import { messageSchemaTool } from '../../../src/commands/mcp/tools/message-schema.js';
import { usageError } from '../../../src/errors.js';

describe('tool schemas', () => {
  it("show the message file schema (pushctl schema) in outline where a message object goes: every field, and no rule it lacks", () => {
    const whole = messageJsonSchema();
    const listed = (describeTool(validateMessageTool).inputSchema.properties as Record<string, Record<string, unknown>>).message!;
    expect(Object.keys(listed.properties as object)).toEqual(Object.keys(whole.properties as object));
    expect(listed.description).toContain('message_schema');
    // Only keywords are dropped: whatever the whole schema (or the tool, which fills type, ttl and recipients) takes, the outline takes.
    const outline = new Ajv({ strict: false }).compile(listed);
    for (const message of [{ notification: { title: 'x' } }, { type: 1, time_to_live: 60, condition: { type: 1, targeting: { country: ['us'] } }, variants: { fr: { notification: { title: 'y' } } } }]) {
      expect(outline(message), JSON.stringify(outline.errors)).toBe(true);
    }
    expect(outline({ notification: { titel: 'x' } })).toBe(false);
  });

  it('outline: a long choice list and patterns are left to message_schema, short choices and descriptions stay', () => {
    expect(outlineSchema({ type: 'array', items: { type: 'string', anyOf: [{ enum: ['AD', 'AE'] }, { pattern: '^x$' }] }, minItems: 1 })).toEqual({ type: 'array', items: { type: 'string' } });
    expect(outlineSchema({ type: 'number', enum: [1, 2], description: 'd' })).toEqual({ type: 'number', enum: [1, 2], description: 'd' });
    expect(outlineSchema({ enum: Array.from({ length: 9 }, (_, i) => i) })).toEqual({});
  });

  it.each(TOOLS.map((tool) => [tool.name, tool]))('%s: an object input, a draft-07 output schema that takes an error envelope, no secret', (_name, tool) => {
    const listed = describeTool(tool);
    expect(listed.inputSchema.type).toBe('object');
    expect(JSON.stringify(listed)).not.toMatch(/secret/i);
    // Clients check structuredContent with a draft-07 checker (the SDK's Client uses ajv).
    const check = new Ajv({ strict: false }).compile(listed.outputSchema!);
    expect(check(errorAnswer(usageError('no', 'do this')).document), JSON.stringify(check.errors)).toBe(true);
    expect(check({ exit_code: 0 })).toBe(false);
  });
});

describe('message arguments → the CLI options', () => {
  it.each([
    [{ title: 'Hi', all: true }, { title: 'Hi', all: true }],
    [{ message: { type: 1 }, vars: { v: '1.2' } }, { file: '-', varEntries: { v: '1.2' } }],
    [{ data: { n: 1, ok: true, s: 'x=y' }, ttl: 90 }, { dataEntries: { n: '1', ok: 'true', s: 'x=y' }, ttl: '90' }],
    [{ clientId: ['a', 'b'], type: 'data' as const, strict: true }, { clientId: ['a', 'b'], type: 'data', strict: true }],
  ])('%j → %j', (fields, options) => {
    expect(messageInputOptions(fields)).toEqual(options);
  });
});

describe('argument errors', () => {
  const parse = (given: unknown) => parseArguments(validateMessageTool.args, given, 'validate_message', argumentNames(validateMessageTool));
  const errorOf = (given: unknown): CliError => {
    try {
      parse(given);
    } catch (error) {
      return error as CliError;
    }
    throw new Error('no error');
  };

  it.each([
    [{ title: 1 }, 'validate_message: title must be a string, got number'],
    [{ titel: 'x' }, 'validate_message: unknown argument "titel" (did you mean "title"?)'],
    [{ type: 'note' }, 'validate_message: type must be one of "notification", "data", 1, 2, got "note"'],
    [{ message: [1] }, 'validate_message: message must be an object, got an array'],
    ['text', 'validate_message: the arguments must be an object, got string'],
  ])('%j → %s', (given, message) => {
    const error = errorOf(given);
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(message);
    expect(error.hint).toMatch(/^validate_message takes message, vars, type, .* \(see its inputSchema\)$/);
  });

  it('takes no arguments as an empty object', () => {
    expect(parse(undefined)).toEqual({});
  });

  // A value of the wrong JSON type that says what was meant: the hint is that value as the argument takes it.
  it.each([
    [{ clientId: 'a' }, 'give clientId as an array: "clientId": ["a"]'],
    [{ country: 'US' }, 'give country as an array: "country": ["US"]'],
    [{ all: 'yes' }, 'give all as a JSON boolean: "all": true'],
    [{ all: 'false' }, 'give all as a JSON boolean: "all": false'],
    [{ strict: 1 }, 'give strict as a JSON boolean: "strict": true'],
    [{ message: '{"type":1}' }, 'give message as a JSON object, not a string that holds one: "message": {"type":1}'],
  ])('%j → hint %s', (given, hint) => {
    expect(errorOf(given).hint).toBe(hint);
  });

  it('says what is wrong as before: the argument, the type it takes and the one it got', () => {
    expect(errorOf({ country: 'US' }).message).toBe('validate_message: country must be an array, got string');
    expect(() => parseArguments(listRunsTool.args, { limit: '5' }, 'list_runs', argumentNames(listRunsTool))).toThrow(
      expect.objectContaining({ message: 'list_runs: limit must be a number, got string', hint: 'give limit as a JSON number: "limit": 5' }),
    );
  });
});

describe('a tool that takes no arguments', () => {
  it('says so, instead of an empty list of them', () => {
    expect(() => parseArguments(messageSchemaTool.args, { x: 1 }, 'message_schema', argumentNames(messageSchemaTool))).toThrow(
      expect.objectContaining({ message: 'message_schema: unknown argument "x"', hint: 'message_schema takes no arguments: call it with {}' }),
    );
  });
});

describe('a number where a whole one is wanted', () => {
  it.each([
    [{ limit: 1.5 }, 'list_runs: limit must be a whole number, got 1.5'],
    // JSON's 1e400 is Infinity once parsed.
    [{ limit: Infinity }, 'list_runs: limit must be a whole number, got Infinity'],
    [{ limit: '5' }, 'list_runs: limit must be a number, got string'],
  ])('%j → %s', (given, message) => {
    expect(() => parseArguments(listRunsTool.args, given, 'list_runs', argumentNames(listRunsTool))).toThrow(message);
  });
});
