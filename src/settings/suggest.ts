/** Edit distance counting a swap of neighbours as one edit (optimal string alignment), case-insensitive. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= s.length; i++) {
    const row = d[i] as number[];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(s.length, t.length);
}

/**
 * The candidate nearest to `input`, or undefined when none is close enough to be a plausible typo
 * (at most a third of the longer word's letters differ, or one is a prefix of the other).
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(input, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const lower = input.toLowerCase();
  const target = best.toLowerCase();
  const close = bestDistance <= Math.max(1, Math.floor(Math.max(lower.length, target.length) / 3));
  const prefix = lower.length >= 3 && (target.startsWith(lower) || target.endsWith(lower));
  return close || prefix ? best : undefined;
}
