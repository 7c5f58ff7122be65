// Issue 32 row 6: `pushctl resend <id> --dry-run --json` of a killed 10,000,000-recipient run: the 42,000
// recipients it would send, listed, and nothing sent, in bounded memory.
import { SIZE, journalReads, readFigure } from '../journal-reads.mjs';

export const name = 'killed 10M journal: resend --dry-run, peak RSS';
export const target = '< 300 MB';
export const timeoutMs = 600_000;

export async function measure(h) {
  return readFigure((await journalReads(h)).preview, ` (${SIZE.left} recipients listed)`);
}
