// The recipients of a message as the rest of pushctl reads them, without caring how they are held.

/**
 * Recipients as the delivery engine reads them: a plain array, or a ClientIdStore that holds a million
 * IDs as bytes and makes strings only for the slice asked for. Only `length` and `slice(start, end)` are used.
 */
export interface ClientIdSource {
  readonly length: number;
  slice(start: number, end: number): string[];
  /** `JSON.stringify(slice(start, end))` as UTF-8 bytes, where the source can make it cheaply. */
  jsonBytes?(start: number, end: number): Buffer;
}
