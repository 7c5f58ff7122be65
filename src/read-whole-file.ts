import { readFileSync, statSync } from 'node:fs';

/**
 * A whole file's bytes. A regular file (the usual case) is read synchronously: a thread-pool round trip and
 * node:fs/promises would cost start-up. Anything else, such as a pipe whose writer is slow
 * (`-f <(make-message)`), is read asynchronously, so that the process keeps answering signals while it waits.
 * Errors are those of node:fs (ENOENT, EISDIR, EACCES...).
 */
export async function readWholeFile(path: string): Promise<Buffer> {
  if (statSync(path).isFile()) return readFileSync(path);
  const { readFile } = await import('node:fs/promises');
  return readFile(path);
}
