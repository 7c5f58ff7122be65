// Issue 32 row 6: `pushctl runs show <id> --json` of a killed 10,000,000-recipient run: its state, counts,
// 9,950 message ids and the resend advice, in bounded memory.
import { journalReads, readFigure } from '../journal-reads.mjs';

export const name = 'killed 10M journal: runs show --json, peak RSS';
export const target = '< 300 MB';
export const timeoutMs = 600_000;

export async function measure(h) {
  return readFigure((await journalReads(h)).show);
}
