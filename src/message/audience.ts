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
