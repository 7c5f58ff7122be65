// A Date in ISO 8601, UTC, exactly as Date#toISOString writes it: every journal timestamp and run id. Made
// from the date's UTC fields because a process's first toISOString costs about a millisecond on Node.js 20
// and 24 (V8 readies its date formatting then), a share of a one-message send's start-up budget
// (docs/behaviour.md#performance) that reading the fields does not cost.
const two = (n: number) => String(n).padStart(2, '0');

export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  // An invalid date throws, and a year outside 0–9999 is written with a sign and six digits: toISOString's own.
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const day = `${String(year).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  return `${day}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${String(date.getUTCMilliseconds()).padStart(3, '0')}Z`;
}
