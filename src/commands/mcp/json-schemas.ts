// The JSON Schemas a client sees, derived from the zod schemas the tools check with: one source of truth.
// Inputs show the message file's schema (the one `pushctl schema` prints) in outline where a message object
// goes, the whole being message_schema's answer; outputs are draft-07, the dialect clients check
// structuredContent with. tools/list is read into every session's context: what tells a model nothing is left out.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';
// toJSONSchema from zod's core, which scripts/build.mjs keeps out of the file every command loads.
import { toJSONSchema } from 'zod/v4/core';
import { messageJsonSchema, type JsonSchema } from '../../message/json-schema.js';
import { FIELD_DESCRIPTIONS, messageObject } from './message-arguments.js';
import { recordBehind } from '../shared/option-kinds.js';
import { outlineSchema } from './schema-outline.js';

type Generated = Record<string, unknown>;

/** The message file's schema as a property: its outline, without the keys only a document's root has. */
function messageProperty(): JsonSchema {
  const { $schema: _schema, title: _title, description: _description, required: _required, ...rest } = messageJsonSchema();
  const outline = outlineSchema(rest);
  // A variant holds fields of the message above (its type, time_to_live, notification, data): said, not repeated.
  const properties = outline.properties as Record<string, JsonSchema>;
  properties.variants = { ...properties.variants, additionalProperties: { type: 'object', description: 'type, time_to_live, notification or data, as in the message' } };
  // No field is required of it: the arguments below give the type, time_to_live and recipients it leaves out.
  return { ...outline, description: FIELD_DESCRIPTIONS.message };
}

/**
 * zod writes every whole number with the bounds of a safe integer (±9007199254740991), 52 bytes that tell a
 * model nothing, some forty times in tools/list. They go; any other bound stays.
 */
function withoutSafeBounds(json: unknown): void {
  if (json === null || typeof json !== 'object') return;
  const node = json as Generated;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  for (const inner of Object.values(node)) withoutSafeBounds(inner);
}

export function inputJsonSchema(schema: z.ZodMiniType): { type: 'object' } & Generated {
  const message = messageProperty();
  const generated = toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    // An object kept as given (ownKeyRecord) is checked in code; the record it checks with is what a client sees.
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const record = recordBehind(zodSchema);
      const isMessage = (zodSchema as object) === messageObject;
      if (!isMessage && record === undefined) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Generated)[key];
      if (isMessage) return void Object.assign(jsonSchema, message);
      const { $schema: _schema, ...shown } = toJSONSchema(record!, { target: 'draft-2020-12', io: 'input' }) as Generated;
      Object.assign(jsonSchema, shown);
    },
  }) as Generated;
  const { $schema: _schema, ...rest } = generated;
  withoutSafeBounds(rest);
  for (const [name, property] of Object.entries((rest.properties ?? {}) as Record<string, Generated>)) {
    const words = FIELD_DESCRIPTIONS[name];
    if (words !== undefined && property.description === undefined) property.description = words;
  }
  return { ...rest, type: 'object' };
}

/** `additionalProperties: {}` (zod's open object) as the plain `true` that every client's checker reads alike. */
function openObjects(json: unknown): void {
  if (json === null || typeof json !== 'object') return;
  const node = json as Generated;
  const extra = node.additionalProperties;
  if (extra !== null && typeof extra === 'object' && Object.keys(extra).length === 0) node.additionalProperties = true;
  for (const inner of Object.values(node)) openObjects(inner);
}

export function outputJsonSchema(schema: z.ZodMiniType): { type: 'object' } & Generated {
  const { $schema: _schema, ...rest } = toJSONSchema(schema, { target: 'draft-7', io: 'output', reused: 'ref' }) as Generated;
  openObjects(rest);
  withoutSafeBounds(rest);
  return { ...rest, type: 'object' };
}
