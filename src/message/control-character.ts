// One definition of "a control character inside a client ID", shared by the schema (IDs in a message
// file) and the collector (IDs from flags and files), so both refuse the same IDs.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** The first control character of `text` as `U+001B`, or undefined when there is none. */
export function firstControlCharacter(text: string): string | undefined {
  const match = CONTROL_CHARACTER.exec(text);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}
