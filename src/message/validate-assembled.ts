import type { ClientIdSource } from './recipients.js';
import type { Assembled } from './assemble.js';
import type { ValidateOptions, ValidationResult } from './types.js';
import { validateMessage } from './validate.js';

/**
 * Validates an assembled message. Recipients kept beside it are already trimmed, non-blank, unique
 * strings, so the rules are checked on a one-ID sample (which still catches an empty list and every
 * warning about client IDs), and the full list is put into the body afterwards. This keeps a big
 * recipient list from being copied through normalisation and the schema. A ClientIdStore is turned into
 * an array here, for output that shows the whole body (`validate`); `send` uses
 * {@link validateAssembledWithoutRecipients} and delivers the store batch by batch.
 */
export function validateAssembled(assembled: Assembled, options: ValidateOptions = {}): ValidationResult {
  const { message, clientIds } = assembled;
  if (clientIds === undefined) return validateMessage(message, options);
  const result = validateMessage(withSample(message, clientIds), options);
  if (result.body) result.body.condition.client_ids = Array.isArray(clientIds) ? (clientIds as string[]) : clientIds.slice(0, clientIds.length);
  return result;
}

/**
 * The same checks as {@link validateAssembled}, but the body comes back without `condition.client_ids`
 * when the recipients are kept beside the message: the caller sends `assembled.clientIds` in batches
 * (`sendBatches` puts each batch into the body), so the full list never exists as one array of strings.
 */
export function validateAssembledWithoutRecipients(assembled: Assembled, options: ValidateOptions = {}): ValidationResult {
  const { message, clientIds } = assembled;
  if (clientIds === undefined) return validateMessage(message, options);
  const result = validateMessage(withSample(message, clientIds), options);
  if (result.body) delete result.body.condition.client_ids;
  return result;
}

function withSample(message: Record<string, unknown>, clientIds: ClientIdSource): Record<string, unknown> {
  const condition = typeof message.condition === 'object' && message.condition !== null ? message.condition : {};
  return { ...message, condition: { ...condition, client_ids: clientIds.slice(0, 1) } };
}
