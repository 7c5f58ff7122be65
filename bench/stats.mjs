// Pure helpers the bench's figures share.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
export function min(xs) {
  return Math.min(...xs);
}
export function max(xs) {
  return Math.max(...xs);
}
