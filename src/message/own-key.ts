// `__proto__` is an ordinary key in JSON and in `-d key=value`, but `object['__proto__'] = value` on a
// plain object calls the prototype setter instead of adding a key, silently dropping it. Every place
// that builds a message object from user keys goes through these helpers.

/** Add `key` to `target` as an own, enumerable property, `__proto__` included. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

const PROTO = '__proto__';

/**
 * zod's record schema skips a `__proto__` key (for the same reason), so the message's `data` is checked
 * with that key under a stand-in of the same length (the 2 KB size rule counts the same bytes), and the
 * key and any issue path are put back afterwards.
 */
export function hideProtoKey(message: unknown): { value: unknown; stand?: string } {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { value: message };
  const data = (message as Record<string, unknown>).data;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Object.hasOwn(data, PROTO)) return { value: message };
  const stand = [...'0123456789abcdefghijklmnopqrstuvwxyz'].map((c) => `__proto_${c}`).find((k) => !Object.hasOwn(data, k));
  if (stand === undefined) return { value: message };
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(data)) setOwn(renamed, key === PROTO ? stand : key, item);
  return { value: { ...message, data: renamed }, stand };
}

/** Puts `__proto__` back where {@link hideProtoKey} put `stand`: in the data object, or in a path. */
export function restoreProtoKey(data: Record<string, string>, stand: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(data)) setOwn(out, key === stand ? PROTO : key, item);
  return out;
}

export function restoreProtoPath(path: string, stand: string): string {
  return path === `data.${stand}` || path.startsWith(`data.${stand}.`) ? `data.${PROTO}${path.slice(5 + stand.length)}` : path;
}
