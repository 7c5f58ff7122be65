// A server's answer is printed for --verbose, and a hostile one could carry terminal escape sequences
// (move the cursor, clear the screen) or newlines that forge lines pushctl never wrote. Every such
// character is shown as an escape instead, so what the terminal shows is exactly what arrived.
import { givenValue } from '../given-value.js';

// C0 controls (newline and tab included), DEL, C1 controls, the Unicode line and paragraph separators,
// and the bidirectional overrides that can make text read in another order than it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character written as `\n`, `\t`, `\xNN` or `\uNNNN`. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => {
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    if (ch === '\t') return '\\t';
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A `--once` key as every message names it: quoted when it is no plain word (src/given-value.ts), escaped. */
export const onceFlag = (key: string): string => `--once ${escapeControl(givenValue(key))}`;
