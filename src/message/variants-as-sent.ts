// What `validate` shows of a message with variants (docs/behaviour.md#variants): each variant as it will be
// sent, so the recipients of each request are the ones send gives it — the client IDs of its language, or
// its languages of --language — and what send refuses (variants to every device) is refused here too.
// Pure: the same planVariants that decides the requests of a send decides what is shown.
import type { ClientIdSource, RecipientLanguageSource } from './recipients.js';
import type { MessageIssue, NamedAudience, PushMessage } from './types.js';
import type { VariantValidation } from './validate-variants.js';
import { planVariants, type VariantAudience } from './variants.js';

/** The client IDs read beside the message, and each one's language (a CSV's `language` column), by position. */
export interface SentRecipients {
  ids: ClientIdSource;
  languages?: RecipientLanguageSource | undefined;
}

/**
 * A variant no recipient or listed language chose is not sent: a warning, in send and validate alike.
 * `noLanguage`: the client IDs came without a language column, so every one gets the base message.
 */
export function unusedVariantWarnings(unused: readonly string[], noLanguage: boolean): MessageIssue[] {
  return unused.map((tag) => ({
    path: `variants.${tag}`,
    rule: 'variant-unused',
    message: noLanguage ? 'no recipient has a language: every client ID gets the base message' : 'no recipient has this language: the variant is not sent',
    ...(noLanguage ? { fix: 'give --client-ids-file a CSV with client_id and language columns (the emulator\'s --devices CSV is one)' } : {}),
  }));
}

function audienceOf(body: PushMessage, recipients: SentRecipients | undefined): VariantAudience {
  const condition = body.condition;
  if (condition?.type === 2 || recipients !== undefined) {
    const ids = recipients ? recipients.ids.slice(0, recipients.ids.length) : (condition?.client_ids ?? []);
    return { kind: 'client_ids', recipients: ids.map((id, position) => ({ id, language: recipients?.languages?.at(position) })) };
  }
  return condition?.type === 1 ? { kind: 'targeting', targeting: condition.targeting ?? {} } : { kind: 'all' };
}

/** `message` addressed to one request's recipients: its client IDs, or its narrowed targeting. */
function addressed(message: PushMessage, request: { clientIds?: string[]; targeting?: PushMessage['condition']['targeting'] }): PushMessage {
  if (request.clientIds !== undefined) return { ...message, condition: { ...message.condition, type: 2, client_ids: request.clientIds } };
  if (request.targeting !== undefined) return { ...message, condition: { ...message.condition, type: 1, targeting: request.targeting } };
  return message;
}

/**
 * A valid validation of a message with variants, its bodies addressed as send addresses them: each variant
 * used with its own recipients (variants no one gets are left out, with a warning), the base message with
 * the rest. An audience send refuses with variants becomes an error, and the result has no body.
 */
export function variantsAsSent(result: VariantValidation, recipients: SentRecipients | undefined, named?: NamedAudience): VariantValidation {
  const { body, variants } = result;
  if (body === undefined || variants === undefined) return result;
  const audience = audienceOf(body, recipients);
  // Only the tags matter to the plan: each variant's message was merged and validated whole already.
  const plan = planVariants({ ...body }, Object.fromEntries(Object.keys(variants).map((tag) => [tag, {}])), audience, named);
  if (!plan.ok) {
    const { body: _body, variants: _variants, ...rest } = result;
    return { ...rest, errors: [...result.errors, { path: 'variants', rule: 'variants-audience', message: plan.message, fix: plan.fix }] };
  }
  const shown: Record<string, PushMessage> = {};
  let base = body;
  const notes = [...result.notes];
  for (const request of plan.requests) {
    if (request.language === null) base = addressed(body, request);
    else shown[request.language] = addressed(variants[request.language]!, request);
  }
  if (!plan.requests.some((request) => request.language === null)) {
    // Shown addressed to no one, as it is sent to no one: its recipients are all in the variants above.
    base = addressed(body, audience.kind === 'client_ids' ? { clientIds: [] } : { targeting: { ...body.condition.targeting, language: [] } });
    notes.push({ path: 'variants', rule: 'base-unused', message: 'every recipient gets a variant: the base message itself is not sent' });
  }
  const noLanguage = audience.kind === 'client_ids' && recipients?.languages === undefined;
  return { ...result, body: base, variants: shown, warnings: [...result.warnings, ...unusedVariantWarnings(plan.unused, noLanguage)], notes };
}
