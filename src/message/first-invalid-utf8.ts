import { isUtf8 } from 'node:buffer';

/**
 * Offset (from `start`) of the first byte of `bytes[start, end)` that is not part of well-formed UTF-8
 * (overlong forms and surrogates included, as the decoder would reject them).
 */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; ) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need === -1) return i - start;
    if (need > 0 && !isUtf8(bytes.subarray(i, Math.min(end, i + need + 1)))) return i - start;
    i += need + 1;
  }
  return end - start;
}
