// Issue 32 row 6 (docs/behaviour.md#journal): `pushctl runs --json` beside the journal of a killed 10,000,000-recipient
// run (670 MB) lists it as killed, with its counts, in bounded memory. Also checks that `pushctl runs` shows
// its row (never "no runs yet").
import { journalReads, readFigure } from '../journal-reads.mjs';

export const name = 'killed 10M journal: runs --json, peak RSS';
export const target = '< 300 MB';
export const timeoutMs = 600_000;

export async function measure(h) {
  const reads = await journalReads(h);
  return readFigure(reads.list, ` (journal ${(reads.bytes / 1e6).toFixed(0)} MB)`);
}
