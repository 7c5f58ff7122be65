/** The service takes at most this many client IDs in one request (SPEC section 1). */
export const MAX_BATCH_SIZE = 1000;

/**
 * The `[start, end)` index ranges of consecutive batches of `size` over `total` IDs (the last may be shorter).
 * Ranges rather than arrays, so batches can be read from their source only when they are sent.
 */
export function batchRanges(total: number, size: number = MAX_BATCH_SIZE): [start: number, end: number][] {
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new RangeError(`batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${size}`);
  }
  const ranges: [number, number][] = [];
  for (let start = 0; start < total; start += size) ranges.push([start, Math.min(start + size, total)]);
  return ranges;
}

/**
 * The batches of a run: `[start, end)` ranges over the recipients, or one empty range for a message with no
 * client IDs (all devices, targeting). The delivery engine and the journal both plan with this.
 */
export function planBatches(recipients: number, size: number = MAX_BATCH_SIZE): [start: number, end: number][] {
  return recipients > 0 ? batchRanges(recipients, size) : [[0, 0]];
}

/** Split IDs into consecutive batches of `size` (the last may be shorter), keeping their order. */
export function chunkClientIds<T>(ids: { readonly length: number; slice(start: number, end: number): T[] }, size: number = MAX_BATCH_SIZE): T[][] {
  return batchRanges(ids.length, size).map(([start, end]) => ids.slice(start, end));
}
