// The JSON Schema (draft 2020-12) of a message FILE, generated from the zod schema that validation uses,
// so editors complete and check message files against the same rules. zod translates the structure
// (types, literals, required and unknown fields); the named checks of schema.ts are code, so each is
// translated here once, from the same constants. A file is checked before normalisation, so where
// normalize.ts accepts more (lower-case countries, numbers for strings, `$schema`) the JSON Schema
// accepts it too: it may accept a file `validate` rejects (the data size limit, a URL that does not
// parse), never the other way round.
import { MAX_TTL_SECONDS } from './duration.js';
// toJSONSchema from zod's core, which scripts/build.mjs keeps out of the file every command loads.
import { toJSONSchema } from 'zod/v4/core';
import { COUNTRY_CODES } from './countries.js';
import {
  API_LEVEL,
  COLOUR,
  LANGUAGE,
  conditionSchema,
  countryCode,
  dataSchema,
  deviceName,
  languageCode,
  nonEmptyString,
  clientId,
  notificationSchema,
  osVersion,
  pushMessageSchema,
} from './schema.js';

export type JsonSchema = Record<string, unknown>;

/** A regular expression's source without its anchors, to embed in a larger pattern. */
const unanchored = (re: RegExp): string => re.source.replace(/^\^/, '').replace(/\$$/, '');

/** Accepts surrounding whitespace, which normalisation trims before the check. */
const trimmed = (re: RegExp): string => `^\\s*(?:${unanchored(re)})\\s*$`;

/** `us` → `[Uu][Ss]`: JSON Schema patterns have no case-insensitive flag. */
const anyCase = (code: string): string => code.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);

const countries = [...COUNTRY_CODES];

/** Shown by editors on hover; the rules themselves come from the schema. */
const DESCRIPTIONS: Record<string, string> = {
  type: '1 = notification, 2 = data message',
  time_to_live: 'seconds the service keeps trying to deliver the message',
  dry_run: 'true: the service checks the message and delivers nothing',
  'condition.type': '0 = all devices, 1 = targeting, 2 = client_ids',
  'notification.notification_type': '1 = system style, 3 = button style',
  'notification.open_type': '"1" = open the app (or the Activity in open_content), "2" = open the URL in open_content',
  data: 'string values; numbers and booleans are converted; at most 2048 bytes of JSON',
};

/** Translations of the named checks of schema.ts, by the zod schema they are attached to. */
function translateChecks(zodSchema: unknown, json: JsonSchema): void {
  // Any case and spaces in a device name: normalisation writes it as the service matches it.
  if (zodSchema === nonEmptyString || zodSchema === clientId || zodSchema === deviceName) json.minLength = 1;
  if (zodSchema === countryCode) {
    // The enum gives editors completion; the pattern accepts any case, which normalisation upper-cases.
    json.anyOf = [{ enum: countries }, { pattern: `^\\s*(?:${countries.map(anyCase).join('|')})\\s*$` }];
  }
  if (zodSchema === languageCode) json.pattern = trimmed(LANGUAGE);
  if (zodSchema === osVersion) {
    // Whole numbers are converted to strings by normalisation.
    delete json.type;
    json.anyOf = [{ type: 'string', pattern: trimmed(API_LEVEL) }, { type: 'integer', minimum: 0 }];
  }
  if (zodSchema === notificationSchema.shape.small_icon_color.def.innerType) json.pattern = COLOUR.source;
  if (zodSchema === notificationSchema.shape.open_type.def.innerType) {
    // A number 1 or 2 is converted to the string the service expects.
    delete json.type;
    json.enum = ['1', '2', 1, 2];
  }
  if (zodSchema === notificationSchema) {
    json.if = { properties: { open_type: { enum: ['2', 2] } }, required: ['open_type'] };
    json.then = { required: ['open_content'] };
  }
  if (zodSchema === dataSchema.def.valueType) {
    delete json.type;
    json.type = ['string', 'number', 'boolean'];
  }
  if (zodSchema === pushMessageSchema.shape.time_to_live) {
    delete json.minimum;
    json.exclusiveMinimum = 0;
    json.maximum = MAX_TTL_SECONDS;
  }
  if (zodSchema === conditionSchema) {
    json.allOf = [
      { if: { properties: { type: { const: 1 } }, required: ['type'] }, then: { required: ['targeting'] } },
      { if: { properties: { type: { const: 2 } }, required: ['type'] }, then: { required: ['client_ids'], properties: { client_ids: { type: 'array', minItems: 1 } } } },
    ];
  }
}

/** Adds hover text to the properties named in DESCRIPTIONS, walking the generated object schemas. */
function describe(json: JsonSchema, prefix = ''): void {
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const text = DESCRIPTIONS[path];
    if (text) property.description = text;
    describe(property, path);
  }
}

/**
 * A message file's `variants` (docs/behaviour.md#variants): by language tag, the fields that differ from the
 * base message. Never sent; pushctl merges each over the base and validates the whole.
 */
function variantsSchema(properties: Record<string, JsonSchema>): JsonSchema {
  const { type, time_to_live, notification, data } = properties;
  return {
    type: 'object',
    description: 'the message in other languages: a language tag (fr, pt-BR) → the fields that differ from the base message; never sent',
    propertyNames: { pattern: LANGUAGE.source },
    minProperties: 1,
    additionalProperties: { type: 'object', properties: { type, time_to_live, notification, data }, additionalProperties: false },
  };
}

/**
 * The JSON Schema (draft 2020-12) of a pushctl message file, generated from the validation schema.
 * Point a file's `"$schema"` at it (validation ignores that key) for completion and checks in editors.
 */
export function messageJsonSchema(): JsonSchema {
  const generated = toJSONSchema(pushMessageSchema, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => translateChecks(zodSchema, jsonSchema as JsonSchema),
  }) as JsonSchema;
  const { $schema, properties, ...rest } = generated;
  const schema: JsonSchema = {
    $schema,
    title: 'pushctl message file',
    description: 'The request body of POST /v1/message/push/{AppID}, as pushctl send -f reads it. Generated by `pushctl schema`.',
    ...rest,
    properties: { $schema: { type: 'string', description: 'this schema, for editors; not sent' }, ...(properties as JsonSchema), variants: variantsSchema(properties as Record<string, JsonSchema>) },
  };
  describe(schema);
  return schema;
}
