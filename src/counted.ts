// A count in words that agree with it: "1 recipient", "2 recipients", "1 batch", "3 batches".

const PLURALS: Record<string, string> = { batch: 'batches' };

/** `n` and `word`, in the plural unless n is 1; `locale` groups the digits (1,200). */
export function counted(n: number, word: string, options: { locale?: boolean } = {}): string {
  return `${options.locale ? n.toLocaleString('en-US') : n} ${n === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;
}
