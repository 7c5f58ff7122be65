// Invisible characters in text from outside (issue 21): a right-to-left override (U+202E) makes
// `dev-<U+202E>gnp.exe` read as `dev-exe.png`, and zero-width characters make two different names look
// equal. The page never lets one act: each is cut out of the text and shown as its code, `<U+202E>`.
// Pure, so it is tested without a browser.

/**
 * Format characters (bidi controls, zero-width spaces and joiners, the byte-order mark, tags...), control
 * characters other than tab and line feed, and the line and paragraph separators. A zero-width joiner
 * between two pictographs is the one exception: it is how emoji such as 👩‍💻 are written, and it cannot
 * reorder or hide text.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /(?!(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic}))[\p{Cf}\u2028\u2029\0-\x08\x0B-\x1F\x7F-\x9F]/gu;

const NAMES: Record<number, string> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x061c: 'ARABIC LETTER MARK',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE (byte-order mark)',
  0x00ad: 'SOFT HYPHEN',
};

/** A run of ordinary text, or one invisible character with its code (`U+202E`) and, when known, its name. */
export type TextPart = { text: string } | { code: string; name: string };

/** `U+202E` for a code point. */
export const codeOf = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Splits text into ordinary runs and invisible characters, in order; joining them shows every character. */
export function splitInvisible(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    const char = match[0];
    parts.push({ code: codeOf(char), name: NAMES[char.codePointAt(0)!] ?? 'invisible character' });
    last = match.index + char.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The text with each invisible character written as `<U+202E>`: for places that take plain text only (a select's options, tooltips). */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `<${codeOf(char)}>`);
}

/**
 * JSON text with each invisible character written as a `\u202e` escape: the same value when parsed, and
 * safe to paste into a terminal or an editor that would apply it. (Only strings can hold such characters.)
 */
export function escapeInvisibleInJson(json: string): string {
  return json.replace(INVISIBLE, (char) => Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/** Whether the text holds an invisible character. */
export const hasInvisible = (text: string): boolean => text.search(INVISIBLE) >= 0;
