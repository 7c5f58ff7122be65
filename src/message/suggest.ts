/** Edit distance between two short strings (field names, command names). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j]!;
      prev[j] = Math.min(above + 1, prev[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `word`, if it is close enough to be a plausible typo:
 * at most a third of the word's length in edits (and at least 2), case and `-`/`_` ignored.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const target = fold(word);
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(target, fold(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
