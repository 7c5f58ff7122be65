// The fingerprint of a message and its audience, for `--once <key>` (docs/behaviour.md#once): a re-run with the same
// key must be the same announcement to the same people, or it is refused. sha256 over the message as sent
// (client IDs left out, keys in a fixed order) and then every client ID in order.
import { createHash } from 'node:crypto';
import { withoutClientIds, type ClientIdSource } from './recipients.js';

const SLICE = 10_000;

export function messageFingerprint(message: object, clientIds: ClientIdSource | undefined): string {
  const hash = createHash('sha256');
  hash.update(canonicalJson(withoutClientIds(message)));
  hash.update('\n');
  const total = clientIds?.length ?? 0;
  for (let start = 0; start < total; start += SLICE) {
    const end = Math.min(start + SLICE, total);
    // The store's JSON bytes where it has them: no string per ID.
    hash.update(clientIds!.jsonBytes ? clientIds!.jsonBytes(start, end) : JSON.stringify(clientIds!.slice(start, end)));
  }
  return `sha256:${hash.digest('hex')}`;
}

/** JSON with object keys sorted, so the same message always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
