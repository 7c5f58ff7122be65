// The JSON Schemas a client sees, derived from the zod schemas the tools check with: one source of truth.
// Inputs embed the message file's schema (the same one `pushctl schema` prints) where a message object
// goes; outputs are draft-07, the dialect clients check structuredContent with.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';
// toJSONSchema from zod's core, which scripts/build.mjs keeps out of the file every command loads.
import { toJSONSchema } from 'zod/v4/core';
import { messageJsonSchema, type JsonSchema } from '../../message/json-schema.js';
import { FIELD_DESCRIPTIONS, messageObject } from './message-arguments.js';
import { recordBehind } from '../shared/option-kinds.js';

type Generated = Record<string, unknown>;

/** The message file's schema as a property: its own rules, without the keys only a document's root has. */
function messageProperty(): JsonSchema {
  const { $schema: _schema, title: _title, ...rest } = messageJsonSchema();
  return { ...rest, description: FIELD_DESCRIPTIONS.message };
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
  const { $schema: _schema, ...rest } = toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Generated;
  openObjects(rest);
  return { ...rest, type: 'object' };
}
