/** Quotes a word for a POSIX shell when it needs it: the printed resend command and the inbox's "copy as pushctl command". */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
