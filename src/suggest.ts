// "Did you mean …?" for field names, config keys, regions and profiles: one rule everywhere.

/** Case, `-` and `_` do not count as differences: `time-to-live` is `time_to_live`. */
const fold = (s: string) => s.toLowerCase().replace(/[-_]/g, '');

/** Edit distance counting a swap of neighbours as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i]!;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `input`, or undefined when none is close enough to be a plausible typo:
 * at most a third of the longer word's letters differ (at least one), or one is a prefix of the other.
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  const word = fold(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word, fold(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const target = fold(best);
  const close = bestDistance <= Math.max(1, Math.floor(Math.max(word.length, target.length) / 3));
  const prefix = word.length >= 3 && (target.startsWith(word) || target.endsWith(word));
  return close || prefix ? best : undefined;
}
