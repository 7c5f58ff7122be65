// A file saved as UTF-16 or UTF-32 (Windows editors and PowerShell's `>` do this) is not invalid UTF-8 at
// some byte: it is another encoding, and saying which tells the user what to change.

/** Byte-order marks, longest first (UTF-32 LE begins with UTF-16 LE's mark). UTF-8's is read as UTF-8. */
const BYTE_ORDER_MARKS: readonly { bytes: readonly number[]; name: string }[] = [
  { bytes: [0xff, 0xfe, 0x00, 0x00], name: 'UTF-32 LE' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], name: 'UTF-32 BE' },
  { bytes: [0xff, 0xfe], name: 'UTF-16 LE' },
  { bytes: [0xfe, 0xff], name: 'UTF-16 BE' },
  { bytes: [0x84, 0x31, 0x95, 0x33], name: 'GB 18030' },
  { bytes: [0xdd, 0x73, 0x66, 0x73], name: 'UTF-EBCDIC' },
];

const hex = (bytes: readonly number[]) => bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');

/**
 * The encoding `bytes` are in when it is plainly not UTF-8: a byte-order mark, or (without one) text
 * whose every other byte is zero, which is how UTF-16 stores ASCII. Undefined otherwise.
 */
export function otherEncoding(bytes: Uint8Array): { name: string; evidence: string } | undefined {
  for (const mark of BYTE_ORDER_MARKS) {
    if (mark.bytes.every((b, i) => bytes[i] === b)) return { name: mark.name, evidence: `it starts with the byte-order mark ${hex(mark.bytes)}` };
  }
  const sample = bytes.subarray(0, 64);
  if (sample.length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const half = Math.floor(sample.length / 2);
  if (oddZeros >= half && evenZeros === 0) return { name: 'UTF-16 LE', evidence: 'every other byte is zero' };
  if (evenZeros >= half && oddZeros === 0) return { name: 'UTF-16 BE', evidence: 'every other byte is zero' };
  return undefined;
}
