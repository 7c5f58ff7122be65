// The generated JSON Schema, checked by a real JSON Schema validator (ajv, draft 2020-12) against what
// `validateMessage` decides: it accepts every message file validation accepts (fixtures and generated
// messages), and rejects the invalid fixture and the rules it translates.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schema as schemaRun } from '../../../src/commands/schema/run.js';
import { printSchema } from '../../../src/output/schema.js';
import type { TextSink } from '../../../src/context.js';
import { COUNTRY_CODES } from '../../../src/message/countries.js';
import { messageJsonSchema } from '../../../src/message/json-schema.js';
import { fillPlaceholders } from '../../../src/message/placeholders.js';
import { validateMessage } from '../../../src/message/validate.js';
import { FIXTURES } from '../../helpers/run-cli.js';

const schema = messageJsonSchema();
// ajv's default strict mode fails on unknown keywords and ill-formed schemas, so this also checks the schema itself.
const check = new Ajv2020({ allErrors: true, allowUnionTypes: true, strictTypes: true }).compile(schema);
const accepts = (m: unknown) => check(m) === true;
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
const base = () => ({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hi' } });

describe('messageJsonSchema', () => {
  it('is a draft 2020-12 schema that allows "$schema" in the file', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(accepts({ $schema: './message.schema.json', ...base() })).toBe(true);
    expect(validateMessage({ $schema: './message.schema.json', ...base() }).errors).toEqual([]);
  });

  it('accepts the fixtures validate accepts, and rejects invalid.json where validate does', () => {
    const valid = fixture('valid.json');
    expect(validateMessage(valid).errors).toEqual([]);
    expect(accepts(valid), JSON.stringify(check.errors)).toBe(true);

    // The template is checked as written (placeholders are plain strings) and as filled.
    const template = fixture('template.json');
    expect(accepts(template), JSON.stringify(check.errors)).toBe(true);
    const filled = fillPlaceholders(template, { version: '1.2.3', notes: 'Faster sends' }).value;
    expect(validateMessage(filled).errors).toEqual([]);
    expect(accepts(filled)).toBe(true);

    const invalid = fixture('invalid.json');
    expect(validateMessage(invalid).errors.map((e) => e.path).sort()).toEqual(['condition.targeting.country[0]', 'notification.titel', 'time_to_live']);
    expect(accepts(invalid)).toBe(false);
    const paths = new Set(check.errors!.map((e) => e.instancePath + (e.params && 'additionalProperty' in e.params ? `/${String(e.params.additionalProperty)}` : '')));
    expect(paths).toEqual(new Set(['/time_to_live', '/condition/targeting/country/0', '/notification/titel']));
  });

  it('offers every country code for completion', () => {
    const country = (((schema.properties as Record<string, Record<string, unknown>>).condition!.properties as Record<string, Record<string, unknown>>)
      .targeting!.properties as Record<string, { items: { anyOf: { enum?: string[] }[] } }>).country!;
    expect(country.items.anyOf[0]!.enum).toEqual([...COUNTRY_CODES]);
  });

  const rejected: [string, (m: Record<string, unknown>) => void][] = [
    ['an unknown field', (m) => (m.titel = 'x')],
    ['a country that is not assigned', (m) => (m.condition = { type: 1, targeting: { country: ['UK'] } })],
    ['a language in the wrong form', (m) => (m.condition = { type: 1, targeting: { language: ['zh_CN'] } })],
    ['an os_version that is not a whole number', (m) => (m.condition = { type: 1, targeting: { os_version: ['13.1'] } })],
    ['a colour that is not #RRGGBB', (m) => (m.notification = { small_icon_color: '#0f0' })],
    ['condition.type 1 without targeting', (m) => (m.condition = { type: 1 })],
    ['condition.type 2 without client IDs', (m) => (m.condition = { type: 2, client_ids: [] })],
    ['an empty client ID', (m) => (m.condition = { type: 2, client_ids: [''] })],
    ['open_type "2" without open_content', (m) => (m.notification = { title: 'a', open_type: 2 })],
    ['notification_type 2', (m) => (m.notification = { notification_type: 2 })],
    ['a nested data value', (m) => (m.data = { a: { b: 'c' } })],
    ['time_to_live 0', (m) => (m.time_to_live = 0)],
    ['time_to_live as a string', (m) => (m.time_to_live = '3600')],
    ['type 3', (m) => (m.type = 3)],
  ];
  for (const [name, patch] of rejected) {
    it(`rejects ${name}, as validate does`, () => {
      const m: Record<string, unknown> = base();
      patch(m);
      expect(validateMessage(m).errors).not.toEqual([]);
      expect(accepts(m)).toBe(false);
    });
  }

  it('accepts what normalisation fixes: lower-case countries, numbers for strings, padded values', () => {
    const m = {
      type: 1,
      time_to_live: 60,
      condition: { type: 1, targeting: { country: [' gb', 'Us'], language: [' en '], os_version: [33, ' 34 '], brand: ['Infinix Mobile'] } },
      notification: { title: 'a', open_type: 1 },
      data: { n: 1, b: true, s: 's' },
    };
    expect(validateMessage(m).errors).toEqual([]);
    expect(accepts(m), JSON.stringify(check.errors)).toBe(true);
  });

  // Messages built mostly from valid parts, so that many pass validation and the property has teeth.
  const some = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 1, maxLength: 3 });
  /** Valid values nine times in ten, and now and then one that a rule refuses. */
  const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: invalid, weight: 1 });
  const text = fc.oneof(fc.constantFrom('x', ' x ', '', '  ', 'Infinix Mobile'), fc.string({ maxLength: 6 }));
  const nearValid = fc.record(
    {
      $schema: fc.constant('./message.schema.json'),
      dry_run: fc.boolean(),
      type: mostly(fc.constantFrom(1, 2), fc.constant(3)),
      time_to_live: mostly(fc.integer({ min: 1, max: 3_000_000 }), fc.constantFrom(0, -1, 1.5)),
      condition: fc.oneof(
        fc.constant({ type: 0 }),
        fc.record({ type: fc.constant(2), client_ids: fc.array(text, { maxLength: 3 }) }),
        fc.record({
          type: fc.constantFrom(1, 1, 0),
          targeting: fc.record(
            {
              country: some(mostly(fc.constantFrom(...COUNTRY_CODES, 'gb', ' us', 'Us'), fc.constantFrom('UK', 'XX', 'G B'))),
              language: some(mostly(fc.constantFrom('en', 'zh-CN', 'es-419', ' en'), fc.constantFrom('EN', 'zh_CN', 'english'))),
              brand: some(text),
              model: some(text),
              os_version: some(mostly(fc.oneof(fc.nat(40), fc.constantFrom('33', ' 33')), fc.constantFrom('13.1', -1, 1.5))),
              app_version: some(text),
            },
            { requiredKeys: [] },
          ),
        }, { requiredKeys: ['type'] }),
      ),
      notification: fc.record(
        {
          notification_type: mostly(fc.constantFrom(1, 3), fc.constant(2)),
          title: fc.string({ maxLength: 5 }),
          desc: fc.string({ maxLength: 5 }),
          icon: fc.constant('https://example.com/i.png'),
          small_icon: fc.constant('ic_stat'),
          small_icon_color: mostly(fc.constantFrom('#1A73E8', '#abcdef'), fc.constantFrom('#0f0', 'red')),
          open_type: mostly(fc.constantFrom('1', '2', 1, 2), fc.constant('3')),
          open_content: fc.constantFrom('https://example.com/a', 'http://x.org', 'com.app.Main', 'ftp://x', ''),
          button_text: fc.string({ maxLength: 5 }),
        },
        { requiredKeys: [] },
      ),
      data: fc.dictionary(fc.string({ maxLength: 4 }), mostly(fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()), fc.constantFrom(null, [], {})), { maxKeys: 3 }),
    },
    { requiredKeys: ['type', 'time_to_live', 'condition'] },
  );

  it('never rejects a message that validate accepts (and agrees on many rejections)', () => {
    let valid = 0;
    fc.assert(
      fc.property(nearValid, (m) => {
        if (validateMessage(m).errors.length > 0) return;
        valid++;
        expect(accepts(m), `${JSON.stringify(m)}\n${JSON.stringify(check.errors)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // Enough of the generated messages were valid for the property to mean something.
    expect(valid).toBeGreaterThan(300);
  });
});

describe('pushctl schema', () => {
  // The command as the CLI runs it: run, then print the outcome.
  const schemaCommand = async (options: { output?: string }, ctx: { stdout: TextSink; stderr: TextSink; cwd: string }) => {
    const outcome = await schemaRun(options, ctx);
    printSchema(outcome, options, ctx);
    return outcome.exitCode;
  };
  const sink = () => {
    let text = '';
    return { write: (s: string) => (text += s), get text() { return text; } };
  };

  it('prints the schema as JSON on stdout', async () => {
    const stdout = sink();
    const stderr = sink();
    expect(await schemaCommand({}, { stdout, stderr, cwd: process.cwd() })).toBe(0);
    expect(JSON.parse(stdout.text)).toEqual(schema);
    expect(stderr.text).toBe('');
  });

  it('--output writes the file, relative to the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-schema-'));
    try {
      const stdout = sink();
      const stderr = sink();
      expect(await schemaCommand({ output: 'message.schema.json' }, { stdout, stderr, cwd: dir })).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'message.schema.json'), 'utf8'))).toEqual(schema);
      expect(stdout.text).toBe('');
      expect(stderr.text).toContain('wrote message.schema.json');
      // A missing folder is made (an editor's .vscode/, as --help shows); a path under a file cannot be written.
      expect(await schemaCommand({ output: 'missing/dir/x.json' }, { stdout, stderr, cwd: dir })).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'missing', 'dir', 'x.json'), 'utf8'))).toEqual(schema);
      await expect(schemaCommand({ output: 'message.schema.json/x.json' }, { stdout, stderr, cwd: dir })).rejects.toMatchObject({ exitCode: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
