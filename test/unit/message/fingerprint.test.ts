// The --once fingerprint (docs/behaviour.md#once): the message and the set of its recipients, whatever their order.
import { describe, expect, it } from 'vitest';
import { AudienceDigest, messageFingerprint, sameFingerprint } from '../../../src/message/fingerprint.js';

const message = { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Release 2.0' } };
const ids = Array.from({ length: 25_000 }, (_, i) => `device-${i}`);

describe('the --once fingerprint', () => {
  it('is the same for the same recipients in any order, across the slices it reads them in', () => {
    const reversed = [...ids].reverse();
    const rotated = [...ids.slice(12_345), ...ids.slice(0, 12_345)];
    expect(messageFingerprint(message, reversed)).toBe(messageFingerprint(message, ids));
    expect(messageFingerprint(message, rotated)).toBe(messageFingerprint(message, ids));
  });

  it('differs for one recipient more, fewer or another, and for another message', () => {
    const base = messageFingerprint(message, ids);
    expect(messageFingerprint(message, [...ids, 'device-x'])).not.toBe(base);
    expect(messageFingerprint(message, ids.slice(1))).not.toBe(base);
    expect(messageFingerprint(message, [...ids.slice(1), 'device-x'])).not.toBe(base);
    expect(messageFingerprint({ ...message, notification: { title: 'Release 2.1' } }, ids)).not.toBe(base);
    // Two IDs whose characters are the same, in another order, are other people.
    expect(messageFingerprint(message, ['ab', 'cd'])).not.toBe(messageFingerprint(message, ['ba', 'dc']));
  });

  it("still matches a journal of an earlier pushctl, whose fingerprint is of the IDs in order (the same list, the same order)", () => {
    // What the earlier messageFingerprint (before the set) returned for this message to ["a", "b"] (sha256 of the message's canonical
    // JSON, a newline, then ["a","b"]), taken from that version's code.
    const written = 'sha256:c312e63bf44605a3e48a075b7fab908699dc6108d010611ecf33569dd664080f';
    const small = { ...message, condition: { type: 2, client_ids: ['a', 'b'] } };
    const fresh = messageFingerprint(small, ['a', 'b']);
    expect(fresh).toMatch(/^sha256-set:[0-9a-f]{64}$/);
    expect(sameFingerprint(written, small, ['a', 'b'], fresh)).toBe(true);
    expect(sameFingerprint(written, small, ['a', 'c'], messageFingerprint(small, ['a', 'c']))).toBe(false);
    expect(sameFingerprint(fresh, small, ['b', 'a'], messageFingerprint(small, ['b', 'a']))).toBe(true);
  });

  it('is made again a batch at a time from a journal\'s records, in both forms (src/journal/key-proof.ts)', () => {
    const digest = new AudienceDigest(message);
    // Batches of 1000 and a last short one: the ordered form still hashes slices of 10,000, as it was written.
    for (let start = 0; start < ids.length; start += 1000) digest.add(ids.slice(start, start + 1000));
    expect(digest.setFingerprint(message)).toBe(messageFingerprint(message, ids));
    expect(sameFingerprint(digest.orderedFingerprint(), message, ids, 'sha256-set:other')).toBe(true);
    const small = new AudienceDigest({ ...message, condition: { type: 2, client_ids: ['a', 'b'] } });
    small.add(['a']);
    small.add(['b']);
    expect(small.orderedFingerprint()).toBe('sha256:c312e63bf44605a3e48a075b7fab908699dc6108d010611ecf33569dd664080f');
  });
});
