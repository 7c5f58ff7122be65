// Message and data files are decoded strictly: the usual decoding replaces invalid UTF-8 with U+FFFD and
// would send text that is not what the file says.
import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8 } from '../message/first-invalid-utf8.js';
import { invalidMessageError } from '../errors.js';
import { otherEncoding } from '../message/text-encoding.js';

/** `bytes` as text, or an invalid-message error naming the line and the byte within it. */
export function decodeUtf8(bytes: Buffer, what: string, flag: string): string {
  // Before the UTF-8 check: UTF-16 text of ASCII characters is valid UTF-8 (with a NUL between each).
  const other = otherEncoding(bytes);
  if (other) {
    throw invalidMessageError(
      `${what} is ${other.name} (${other.evidence}), not UTF-8`,
      `save it as UTF-8 (e.g. iconv -f ${other.name.replace(' ', '')} -t UTF-8, or your editor's "Save with encoding"), then pass it to ${flag} again`,
    );
  }
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const offset = firstInvalidUtf8(bytes, 0, bytes.length);
  let line = 1;
  let lineStart = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0');
  throw invalidMessageError(`${what} is not valid UTF-8: byte 0x${byte} at line ${line}, byte ${offset - lineStart + 1}`, `save the file as UTF-8 and pass it to ${flag} again`);
}
