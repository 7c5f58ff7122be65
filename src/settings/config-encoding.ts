// A config file's encoding (docs/behaviour.md#settings). Windows editors save UTF-8 with a byte-order mark,
// which YAML allows and cosmiconfig's JSON parser refuses (with a position past the end of the file); and
// PowerShell's `>` saves UTF-16, which no parser here reads. The first is read as the UTF-8 it is; the second
// is refused by its name, before a parser reports a syntax error the file does not have.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Loader } from 'cosmiconfig';
import { configError } from '../errors.js';
import { otherEncoding } from '../message/text-encoding.js';
import { withoutBom } from '../message/parse-json.js';

/** Throws a configError (exit 6) naming the encoding when the file at `filepath` is plainly not UTF-8. */
export function refuseOtherEncoding(filepath: string): void {
  const head = Buffer.alloc(64);
  let fd: number | undefined;
  let read = 0;
  try {
    fd = openSync(filepath, 'r');
    read = readSync(fd, head, 0, head.length, 0);
  } catch {
    // Unreadable or missing: the loader's error names it.
    return;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const other = otherEncoding(head.subarray(0, read));
  if (!other) return;
  throw configError(
    `cannot read config file ${filepath}: it is ${other.name}, not UTF-8 (${other.evidence})`,
    `save it as UTF-8 (e.g. iconv -f ${other.name.replace(' ', '')} -t UTF-8, or your editor's "Save with encoding"), or run pushctl init --force to rewrite it`,
  );
}

/** cosmiconfig's JSON loader (package.json too) reading a file saved with a UTF-8 byte-order mark. */
export const bomTolerant =
  (load: Loader): Loader =>
  (filepath, content) =>
    load(filepath, withoutBom(content));
