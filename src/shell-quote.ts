/**
 * Characters a command must not hold as they are: control characters other than tab and line feed (a bell, an
 * escape sequence acts when pasted into a terminal), format characters (a bidi override shows `exe.txt` as
 * `txt.exe`, so the command read is not the command run) and the line and paragraph separators.
 */
// A new expression at each call (its lastIndex at 0), and not one made as the module loads: V8 builds `\p{Cf}`
// from ICU's tables when the literal is first evaluated, some 2M instructions (0.3% of a send's) that a run
// quoting no such word need not pay.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unshowable = () => /[\0-\x08\x0B-\x1F\x7F-\x9F\p{Cf}\u2028\u2029]/gu;

/** `\342\200\256`: the character's UTF-8 bytes as the octal escapes POSIX printf reads. */
const octalBytes = (char: string): string => [...new TextEncoder().encode(char)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');

/**
 * A word with such characters, as `"$(printf '…')"` with each of them written as octal escapes: POSIX (dash
 * has no `$'…'`), and the same bytes once the shell has run it. Command substitution drops trailing line
 * feeds, so those follow in quotes of their own.
 */
function printfWord(word: string): string {
  const tail = /\n*$/.exec(word)![0];
  const format = word
    .slice(0, word.length - tail.length)
    .replace(/[\\%']/g, (char) => (char === '\\' ? '\\\\' : char === '%' ? '%%' : `'\\''`))
    .replace(unshowable(), octalBytes);
  // A format starting with `-` would be read as an option.
  return `"$(printf ${format.startsWith('-') ? '-- ' : ''}'${format}')"${tail ? `'${tail}'` : ''}`;
}

/** Quotes a word for a POSIX shell when it needs it: the printed resend command and the inbox's "copy as pushctl command". */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return unshowable().test(word) ? printfWord(word) : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A flag is a dash or two and a letter: "-" (stdin), "-5" (a number) and "- item" (text) are values. */
export const looksLikeFlag = (arg: string): boolean => /^--?[A-Za-z]/.test(arg);

/**
 * How a printed command gives `flag` its value: apart (`--to desk`), or attached (`--to=-desk`) when the value
 * reads as a flag, which the CLI refuses apart (cli-flag-values.ts). `quoted` is the value as the shell is to
 * be given it, when more than the value is printed (a placeholder after it, say).
 */
export const flagAndValue = (flag: string, value: string, quoted = shellQuote(value)): string => `${flag}${looksLikeFlag(value) ? '=' : ' '}${quoted}`;
