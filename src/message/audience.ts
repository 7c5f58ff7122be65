// Who a message is for, in words: "all devices", "condition: country GB, language en", or a count of client
// IDs. A run addressed to all devices has no client IDs to count, and must never read as "0 recipients".

interface ConditionLike {
  type?: unknown;
  targeting?: Record<string, unknown>;
}

const FIELD_WORDS: Record<string, string> = {
  country: 'country',
  language: 'language',
  brand: 'brand',
  model: 'model',
  os_version: 'OS',
  app_version: 'app version',
};

/** The audience of a message without its client IDs, in words; `undefined` for a list of client IDs. */
export function audienceWords(message: object | undefined): string | undefined {
  const condition = (message as { condition?: ConditionLike } | undefined)?.condition;
  if (!condition || condition.type === 2) return undefined;
  if (condition.type === 0) return 'all devices';
  const parts = Object.entries(condition.targeting ?? {}).flatMap(([key, values]) =>
    Array.isArray(values) && values.length > 0 ? [`${FIELD_WORDS[key] ?? key} ${values.map(String).join(',')}`] : [],
  );
  return parts.length > 0 ? `condition: ${parts.join(', ')}` : 'condition: (no criteria)';
}

/**
 * The audience of a condition sent as one request per language variant (docs/behaviour.md#variants), in words:
 * every language its requests name together, never the base message's languages alone. The variants are each
 * variant's whole message as sent; the live send and a run read back from its journal say the same.
 */
export function variantsAudienceWords(base: object, variants: readonly object[]): string | undefined {
  const condition = (base as { condition?: ConditionLike }).condition;
  if (condition?.type !== 1) return audienceWords(base);
  const languageOf = (m: object) => (m as { condition?: ConditionLike }).condition?.targeting?.language;
  const languages = [...variants, base].flatMap((m) => {
    const list = languageOf(m);
    return Array.isArray(list) ? list.map(String) : [];
  });
  const all = { ...base, condition: { ...condition, targeting: { ...condition.targeting, language: [...new Set(languages)] } } };
  return `${audienceWords(all) ?? 'condition'} (one request per language variant)`;
}
