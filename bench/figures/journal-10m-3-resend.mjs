// Issue 32 row 6: `pushctl resend <id>` of a killed 10,000,000-recipient run sends what it left (42,000
// recipients not sent; 8,000 in doubt stay out) to an emulator with no rate limit, in bounded memory.
import { SIZE, journalReads, readFigure } from '../journal-reads.mjs';

export const name = 'killed 10M journal: resend, peak RSS';
export const target = '< 300 MB';
export const timeoutMs = 600_000;

export async function measure(h) {
  return readFigure((await journalReads(h)).resend, ` (${SIZE.left} recipients sent)`);
}
