// The fingerprint of a message and its audience, for `--once <key>` (docs/behaviour.md#once): a re-run with the same
// key must be the same announcement to the same people, or it is refused. sha256 over the message as sent
// (client IDs left out, keys in a fixed order), the number of client IDs and a digest of the set of them.
//
// The set, not the list: a CI job's IDs from a query without ORDER BY come in another order on the re-run, and
// are the same people. Each ID is hashed on its own and the hashes are added up (a sum does not care about
// order), in four 32-bit lanes of different seeds; the IDs are unique, so no two cancel. It guards against a
// changed audience, not an adversary, and needs neither the IDs sorted nor held as strings all at once.
import { createHash } from 'node:crypto';
import { withoutClientIds, type ClientIdSource } from './recipients.js';

const SLICE = 10_000;
const SEEDS = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b] as const;

export function messageFingerprint(message: object, clientIds: ClientIdSource | undefined): string {
  const digest = new AudienceDigest();
  const total = clientIds?.length ?? 0;
  for (let start = 0; start < total; start += SLICE) digest.add(clientIds!.slice(start, Math.min(start + SLICE, total)));
  return digest.setFingerprint(message);
}

/**
 * Whether `stored` (a journal's fingerprint) is this message to these recipients. A journal of an earlier pushctl
 * holds the fingerprint of the IDs in order (`sha256:`): its key still matches the same list in the same order.
 */
export function sameFingerprint(stored: string | undefined, message: object, clientIds: ClientIdSource | undefined, fresh: string): boolean {
  if (stored === fresh) return true;
  return stored !== undefined && stored.startsWith('sha256:') && stored === orderedFingerprint(message, clientIds);
}

/** The earlier fingerprint: the message, then every client ID in order. */
function orderedFingerprint(message: object, clientIds: ClientIdSource | undefined): string {
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

/**
 * Both fingerprints of an audience read a batch at a time, holding no more than a slice of it: what a key's
 * journal proves (src/journal/key-proof.ts) is its fingerprint made again from its own records, and a journal
 * may hold millions of IDs. The earlier, ordered form hashes the message before the IDs, so it is made only
 * when given the message first (`orderedMessage`).
 */
export class AudienceDigest {
  private readonly sums = [0, 0, 0, 0];
  private total = 0;
  private readonly ordered: { hash: ReturnType<typeof createHash>; pending: string[] } | undefined;

  constructor(orderedMessage?: object) {
    if (orderedMessage === undefined) return;
    const hash = createHash('sha256');
    hash.update(canonicalJson(withoutClientIds(orderedMessage)));
    hash.update('\n');
    this.ordered = { hash, pending: [] };
  }

  add(ids: readonly string[]): void {
    this.total += ids.length;
    for (const id of ids) {
      for (let lane = 0; lane < SEEDS.length; lane++) this.sums[lane] = (this.sums[lane]! + idHash(id, SEEDS[lane]!)) >>> 0;
    }
    const ordered = this.ordered;
    if (!ordered) return;
    // The ordered form hashed the IDs as JSON arrays of SLICE each: the same slices, whatever the batches.
    for (const id of ids) {
      ordered.pending.push(id);
      if (ordered.pending.length === SLICE) ordered.hash.update(JSON.stringify(ordered.pending.splice(0)));
    }
  }

  /** The fingerprint `--once` writes today (`sha256-set:`), of `message` to the IDs added. */
  setFingerprint(message: object): string {
    const hash = createHash('sha256');
    hash.update(canonicalJson(withoutClientIds(message)));
    hash.update(`\n${this.total}:${this.sums.map((s) => s.toString(16).padStart(8, '0')).join('')}`);
    return `sha256-set:${hash.digest('hex')}`;
  }

  /** The earlier, ordered fingerprint (`sha256:`) of the message given first to the IDs added in order; once. */
  orderedFingerprint(): string {
    const { hash, pending } = this.ordered!;
    if (pending.length > 0) hash.update(JSON.stringify(pending.splice(0)));
    return `sha256:${hash.digest('hex')}`;
  }
}

/** A 32-bit hash of one ID: FNV-1a from `seed`, then murmur3's finalizer, so every bit of the ID moves every bit. */
function idHash(id: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
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
