import { pushMessageSchema } from './schema.js';
import { normalizeMessage } from './normalize.js';
import { toMessageIssues } from './issues.js';
import { messageWarnings } from './warnings.js';
import { hideProtoKey, restoreProtoKey, restoreProtoPath } from './own-key.js';
import type { PushMessage, ValidateOptions, ValidationResult } from './types.js';

/**
 * Normalises and checks a push message body against the service's rules (docs/behaviour.md#validation).
 * Never throws: any input gives a result whose `body` is set only when there are no errors.
 */
export function validateMessage(input: unknown, options: ValidateOptions = {}): ValidationResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const what = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return { errors: [{ path: '', rule: 'type', message: `the message must be a JSON object, not ${what}`, fix: 'start the file with { "type": 1, ... }' }], warnings: [], notes: [] };
  }
  const { value: normalized, notes } = options.asReceived ? { value: input, notes: [] } : normalizeMessage(input);
  const { value, stand } = hideProtoKey(normalized);
  const parsed = pushMessageSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const errors = toMessageIssues(parsed.error.issues);
    return { errors: stand ? errors.map((e) => ({ ...e, path: restoreProtoPath(e.path, stand) })) : errors, warnings: [], notes };
  }
  const body = parsed.data as PushMessage;
  if (stand && body.data) body.data = restoreProtoKey(body.data, stand);
  const warnings = messageWarnings(body);
  if (options.strict && warnings.length > 0) {
    return { errors: warnings.map((w) => ({ ...w, message: `${w.message} (an error under --strict)` })), warnings: [], notes };
  }
  return { body, errors: [], warnings, notes };
}
