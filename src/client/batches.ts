/** The service takes at most this many client IDs in one request (SPEC section 1). */
export const MAX_BATCH_SIZE = 1000;

/** Split IDs into consecutive batches of `size` (the last may be shorter), keeping their order. */
export function chunkClientIds<T>(ids: readonly T[], size: number = MAX_BATCH_SIZE): T[][] {
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new RangeError(`batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${size}`);
  }
  const batches: T[][] = [];
  for (let start = 0; start < ids.length; start += size) batches.push(ids.slice(start, start + size));
  return batches;
}
