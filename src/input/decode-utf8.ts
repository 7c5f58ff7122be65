// Message and data files are decoded strictly: the usual decoding replaces invalid UTF-8 with U+FFFD and
// would send text that is not what the file says.
import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8 } from '../message/first-invalid-utf8.js';
import { invalidMessageError } from '../errors.js';

/** `bytes` as text, or an invalid-message error naming the line and the byte within it. */
export function decodeUtf8(bytes: Buffer, what: string, flag: string): string {
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
