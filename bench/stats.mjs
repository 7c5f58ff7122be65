// Pure helpers the bench's sections share.

export function maxInSlidingWindow(sortedTimes, windowMs) {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sortedTimes.length; hi++) {
    while (sortedTimes[hi] - sortedTimes[lo] >= windowMs) lo += 1;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

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
export function round1(x) {
  return Math.round(x * 10) / 10;
}
export function round2(x) {
  return Math.round(x * 100) / 100;
}
export function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
