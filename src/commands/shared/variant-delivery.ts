// Between preparing a message and delivering it: which request each variant makes (docs/behaviour.md#variants).
// Client IDs go into lanes by their language; condition targeting becomes one request per variant language
// and the base message to the languages of --language no variant covers; every device is refused.
import { invalidMessageError } from '../../errors.js';
import { isGrowing, type ClientIdSource, type RecipientLanguageSource } from '../../message/recipients.js';
import type { MessageIssue, NamedAudience, PushMessage } from '../../message/types.js';
import { GrowingVariantRecipients, VariantRecipients } from '../../message/variant-recipients.js';
import { planVariants } from '../../message/variants.js';
import { unusedVariantWarnings } from '../../message/variants-as-sent.js';
import { audienceWords, variantsAudienceWords } from '../../message/audience.js';

/** What the delivery needs to send variants: each variant's message, and for targeting, the requests. */
export interface VariantDelivery {
  /** Each variant's whole message as sent (with targeting: narrowed to its languages). */
  messages: Map<string, PushMessage>;
  /** Condition targeting: one request per entry, a variant tag or null (the base message), in this order. */
  audiences?: (string | null)[];
}

export interface ArrangedDelivery {
  body: PushMessage;
  clientIds: ClientIdSource | undefined;
  variants?: VariantDelivery;
  /** Variants no recipient or listed language chose, as warnings (known for a whole list only). */
  warnings: MessageIssue[];
}

interface Prepared {
  body: PushMessage;
  clientIds: ClientIdSource | undefined;
  variants?: Record<string, PushMessage>;
  languages?: RecipientLanguageSource;
  /** The named audience (`--to`) that chose the recipients, for the way out of a refusal. */
  audience?: NamedAudience;
}

/** The requests of a prepared message; throws (exit 3) for variants to every device or to targeting without languages. */
export function arrangeVariants(prepared: Prepared, batchSize: number): ArrangedDelivery {
  const { body, clientIds, variants } = prepared;
  if (variants === undefined) return { body, clientIds, warnings: [] };
  const tags = Object.keys(variants);
  const messages = new Map(Object.entries(variants));
  const condition = body.condition;
  if (condition?.type === 2 || clientIds !== undefined) {
    const source = clientIds ?? [];
    const lanes = isGrowing(source) ? new GrowingVariantRecipients(source, prepared.languages, tags, batchSize) : VariantRecipients.whole(source, prepared.languages, tags);
    const unused = isGrowing(source) ? [] : tags.filter((tag) => !lanes.counts.has(tag));
    const noLanguage = prepared.languages === undefined && !isGrowing(source);
    return { body, clientIds: lanes, variants: { messages }, warnings: unusedVariantWarnings(unused, noLanguage) };
  }
  // Only the tags matter to the plan: each variant's message was merged and validated whole already.
  const audience = condition?.type === 1 ? { kind: 'targeting' as const, targeting: condition.targeting ?? {} } : { kind: 'all' as const };
  const plan = planVariants({ ...body }, Object.fromEntries(tags.map((tag) => [tag, {}])), audience, prepared.audience);
  if (!plan.ok) throw invalidMessageError(plan.message, plan.fix);
  const narrowed = (message: PushMessage, targeting: PushMessage['condition']['targeting']): PushMessage => ({ ...message, condition: { ...message.condition, type: 1, targeting: targeting ?? {} } });
  let base = body;
  for (const request of plan.requests) {
    if (request.language === null) base = narrowed(body, request.targeting);
    else messages.set(request.language, narrowed(messages.get(request.language)!, request.targeting));
  }
  return { body: base, clientIds: undefined, variants: { messages, audiences: plan.requests.map((r) => r.language) }, warnings: unusedVariantWarnings(plan.unused, false) };
}

/** An audience sent in one request per variant, in words: see variantsAudienceWords. */
export function variantAudienceWords(base: PushMessage, variants: VariantDelivery): string | undefined {
  return variants.audiences ? variantsAudienceWords(base, [...variants.messages.values()]) : audienceWords(base);
}
