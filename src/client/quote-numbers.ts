// JSON.parse turns 98765432109876543210 into 98765432109876540000: a number past 2^53 loses digits. An
// identifier must survive exactly, so its raw text is recovered by quoting every number before parsing.

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The same JSON text with every number literal written as a string (`{"a":12}` → `{"a":"12"}`), so that
 * `JSON.parse` hands back each number exactly as written. Text inside strings is left alone; text that is
 * not JSON stays not JSON.
 */
export function quoteNumbers(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (ch === 0x2d || (ch >= 0x30 && ch <= 0x39)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) continue;
      out += `${text.slice(copied, i)}"${match[0]}"`;
      i += match[0].length - 1;
      copied = i + 1;
    }
  }
  return out + text.slice(copied);
}
