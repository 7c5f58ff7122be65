import type { Assembled } from './assemble.js';
import type { ValidateOptions, ValidationResult } from './types.js';
import { validateMessage } from './validate.js';

/**
 * Validates an assembled message. Recipients kept beside it are already trimmed, non-blank, unique
 * strings, so the rules are checked on a one-ID sample (which still catches an empty list and every
 * warning about client IDs), and the full list is put into the body afterwards. This keeps a send to a
 * million recipients from copying the list through normalisation and the schema.
 */
export function validateAssembled(assembled: Assembled, options: ValidateOptions = {}): ValidationResult {
  const { message, clientIds } = assembled;
  if (clientIds === undefined) return validateMessage(message, options);
  const condition = typeof message.condition === 'object' && message.condition !== null ? message.condition : {};
  const sample = { ...message, condition: { ...condition, client_ids: clientIds.slice(0, 1) } };
  const result = validateMessage(sample, options);
  if (result.body) result.body.condition.client_ids = clientIds;
  return result;
}
