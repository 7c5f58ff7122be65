// A message file's `variants` (docs/behaviour.md#variants): taken off the message (it is never sent), then
// each variant merged over the base and checked as the whole message it becomes, so a French title too long
// for a phone is named with its language (`variants.fr: notification.title ...`).
import type { Assembled } from './assemble.js';
import { LANGUAGE } from './schema.js';
import type { MessageIssue, PushMessage, ValidateOptions, ValidationResult } from './types.js';
import { mergeVariant } from './variants.js';
import { pointToAudience } from './audience-findings.js';

type Json = Record<string, unknown>;

/** A validation with every variant's whole message, as it would be sent (present only when all are valid). */
export interface VariantValidation extends ValidationResult {
  variants?: Record<string, PushMessage>;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message without `variants`, and the variants as written (undefined: the file has none). */
export function splitVariants(message: Json): { base: Json; variants: unknown } {
  if (!isObject(message) || !Object.hasOwn(message, 'variants')) return { base: message, variants: undefined };
  const { variants, ...base } = message;
  return { base, variants };
}

/** What is wrong with the shape of `variants`, before any variant is merged. */
function shapeErrors(variants: unknown): MessageIssue[] {
  if (!isObject(variants) || Object.keys(variants).length === 0) {
    return [{ path: 'variants', rule: 'variants', message: 'must be an object of language tag → partial message, e.g. {"fr": {"notification": {"title": "…"}}}', fix: 'remove "variants", or give at least one language' }];
  }
  const errors: MessageIssue[] = [];
  for (const [tag, variant] of Object.entries(variants)) {
    const path = `variants.${tag}`;
    if (!LANGUAGE.test(tag)) errors.push({ path, rule: 'variant-language', message: `${JSON.stringify(tag)} is not a language tag`, fix: 'use a tag such as fr, sw or pt-BR (lower-case language, upper-case region)' });
    else if (!isObject(variant)) errors.push({ path, rule: 'variants', message: 'must be an object: the fields that differ from the base message', fix: `e.g. "${tag}": {"notification": {"title": "…"}}` });
    else if (Object.hasOwn(variant, 'condition')) errors.push({ path: `${path}.condition`, rule: 'variant-condition', message: 'a variant changes what is said, not to whom', fix: 'remove "condition" from the variant; the recipients come from the base message or the recipient flags' });
  }
  return errors;
}

const sameIssue = (a: MessageIssue, b: MessageIssue) => a.path === b.path && a.rule === b.rule && a.message === b.message;

/**
 * Validates the base message (without `variants`) with `validate`, then each variant merged over it. Issues
 * of a variant are named `variants.<tag>: <path>`; an error or a warning the base already has is the base's
 * to fix, and is not repeated per variant.
 */
export function validateWithVariants(assembled: Assembled, options: ValidateOptions, validate: (assembled: Assembled, options: ValidateOptions) => ValidationResult): VariantValidation {
  const result = validateEach(assembled, options, validate);
  // What a named audience chose is fixed in the config file: its findings say where.
  return { ...result, errors: pointToAudience(result.errors, assembled.audience), warnings: pointToAudience(result.warnings, assembled.audience) };
}

/** validateWithVariants without the audience's pointers. */
function validateEach(assembled: Assembled, options: ValidateOptions, validate: (assembled: Assembled, options: ValidateOptions) => ValidationResult): VariantValidation {
  const { base, variants } = splitVariants(assembled.message);
  const result = validate({ ...assembled, message: base }, options);
  if (variants === undefined) return result;
  const shape = shapeErrors(variants);
  if (shape.length > 0) return withoutBody({ ...result, errors: [...result.errors, ...shape] });
  const errors = [...result.errors];
  const warnings = [...result.warnings];
  const bodies: Record<string, PushMessage> = {};
  for (const [tag, variant] of Object.entries(variants as Record<string, Json>)) {
    const checked = validate({ ...assembled, message: mergeVariant(base, variant) }, options);
    const named = (issue: MessageIssue): MessageIssue => ({ ...issue, path: `variants.${tag}: ${issue.path || '(message)'}` });
    const own = (found: MessageIssue[], inBase: MessageIssue[]) => found.filter((issue) => !inBase.some((b) => sameIssue(b, issue))).map(named);
    errors.push(...own(checked.errors, result.errors));
    warnings.push(...own(checked.warnings, result.warnings));
    if (checked.body) bodies[tag] = checked.body;
  }
  const all = { ...result, errors, warnings };
  return errors.length > 0 ? withoutBody(all) : { ...all, variants: bodies };
}

function withoutBody(result: VariantValidation): VariantValidation {
  const { body: _body, variants: _variants, ...rest } = result;
  return rest;
}
