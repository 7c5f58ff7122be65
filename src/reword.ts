// Saying the CLI's words in another surface's terms (the action's inputs, the MCP tools' arguments) rewrites
// prose, never what the prose quotes: a command to run as printed, or a value the user gave.

/**
 * A value quoted back to whoever gave it, as JSON.stringify writes it (`unknown argument "--desc"`, `--to
 * "--all"`), when it holds what a rewording would touch (a dash and a letter not inside a word): rewritten,
 * it would name something the user never gave, and hide the mistake they made.
 */
export const QUOTED_VALUE = /"(?:[^"\\\n]|\\.)*"/g;
const FLAG_LIKE = /(?<![\w`'-])--?[a-z]/i;
export const quotesFlagLike = (quoted: string): boolean => FLAG_LIKE.test(quoted);

/**
 * `text` with `reword` applied to what lies between the matches of `kept` (a global pattern) that `keep`
 * accepts (every match by default); those matches stay as they are.
 */
export function rewordOutside(text: string, kept: RegExp, reword: (prose: string) => string, keep: (match: string) => boolean = () => true): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(kept)) {
    if (!keep(match[0])) continue;
    out += reword(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + reword(text.slice(from));
}

/** `text` as a pattern that matches it literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern matching any of `texts` as written; where two start at one place, the longer is matched whole. */
export const anyOf = (texts: readonly string[]): RegExp => new RegExp([...texts].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
