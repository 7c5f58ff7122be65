// What a `--once` key's journals prove (docs/behaviour.md#trust). The key's run is found by the fingerprint its
// header claims, but a header is text anyone with the file can edit: only the fingerprint made again from the
// journals' own records — the message a resume would send, the audience the key's first run planned — shows
// that what they say of the key is about this message to these recipients. Pure of the terminal: the caller
// words the refusal.
import { AudienceDigest } from '../message/fingerprint.js';
import { readJournalFile } from './journal-file.js';
import type { HeaderRecord } from './records.js';

/** The message a run's header says it sent, as its fingerprint covers it: with its variants, if any. */
function fingerprinted(header: HeaderRecord): object {
  return header.variants ? { ...header.message, variants: header.variants } : header.message;
}

/**
 * Why the journals of a key do not prove its fingerprint, in words; undefined when they do. `found` is the
 * key's newest run (whose message a resume sends), `rootPath` the journal of its family's first run, whose
 * batch records are the key's whole audience.
 */
export function keyProofProblem(found: HeaderRecord, rootPath: string): string | undefined {
  const stored = found.fingerprint;
  if (stored === undefined) return 'it holds no fingerprint of its message and recipients';
  const ordered = stored.startsWith('sha256:');
  const digest = new AudienceDigest(ordered ? fingerprinted(found) : undefined);
  try {
    readJournalFile(rootPath, false, (ids) => digest.add(ids));
  } catch {
    return `the journal of its first run, ${rootPath}, cannot be read`;
  }
  const made = ordered ? digest.orderedFingerprint() : digest.setFingerprint(fingerprinted(found));
  return made === stored ? undefined : 'its message and recipients are not those its fingerprint names (edited, or the first run of its family is missing)';
}

/**
 * The IDs of `toSend` that `audience` does not hold, at most a few: a resume sends only recipients of the
 * command that resumes it, never one a journal added. Holds only `toSend` (what is sent) in memory.
 */
export function outsideAudience(toSend: readonly string[], audience: { length: number; slice(start: number, end: number): string[] } | undefined): string[] {
  const unseen = new Set(toSend);
  const total = audience?.length ?? 0;
  for (let start = 0; start < total && unseen.size > 0; start += 65_536) {
    for (const id of audience!.slice(start, Math.min(total, start + 65_536))) unseen.delete(id);
  }
  return [...unseen].slice(0, 3);
}
