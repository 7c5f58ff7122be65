// A value the user gave (an audience name, a --once key), as a message names it: as written when it reads as
// one plain word, else quoted as JSON. `--to --file: no such audience` read as two flags, and the action and
// `pushctl mcp`, which say flags in their own terms, reworded the value as if it were one.

/** Starts with a dash (reads as a flag), or holds a space or a quote (reads as more than one word). */
const NOT_PLAIN = /^-|[\s"]/u;

export const givenValue = (value: string): string => (NOT_PLAIN.test(value) ? JSON.stringify(value) : value);
