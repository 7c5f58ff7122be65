// A resend of a run with variants (docs/behaviour.md#variants): each remaining client ID gets the variant it
// was planned with, from the journal's own messages, and an audience's remaining requests go again as they were.
import type { HeaderRecord } from '../../journal/records.js';
import type { ClientIdSource } from '../../message/recipients.js';
import type { PushMessage } from '../../message/types.js';
import { VariantRecipients } from '../../message/variant-recipients.js';
import type { Remaining } from './resume.js';
import type { VariantDelivery } from './variant-delivery.js';

export function resendVariants(header: Pick<HeaderRecord, 'variants'>, left: Pick<Remaining, 'clientIds' | 'variantOf' | 'audiences'>): { clientIds?: ClientIdSource; variants?: VariantDelivery } {
  const clientIds = left.clientIds;
  if (header.variants === undefined || typeof header.variants !== 'object') return clientIds ? { clientIds } : {};
  // The journal's messages were validated when the run began: they are what it sent, and what is sent again.
  const messages = new Map(Object.entries(header.variants).map(([tag, message]) => [tag, message as PushMessage]));
  if (left.audiences) return { variants: { messages, audiences: left.audiences } };
  if (!clientIds) return {};
  const { variantOf } = left;
  // A lane's own tag chooses it exactly; an ID the journal planned with the base message has no language.
  const languages = { at: (position: number) => variantOf?.get(clientIds[position]!) ?? undefined };
  return { clientIds: VariantRecipients.whole(clientIds, languages, [...messages.keys()]), variants: { messages } };
}
