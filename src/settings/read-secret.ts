import path from 'node:path';
import type { Readable } from 'node:stream';
import { configError, usageError } from '../errors.js';
import { readWholeFile } from '../read-whole-file.js';

/** A secret taken from a flag, with the words that say where it came from (never the value). */
export interface SecretInput {
  value: string;
  source: string;
}

export interface ReadSecretOptions {
  /** `--app-secret-file <path>` */
  appSecretFile?: string;
  /** `--app-secret-stdin` */
  appSecretStdin?: boolean;
}

/** A secret is a short token; anything bigger is the wrong file, and reading it all is pointless. */
const maxSecretBytes = 64 * 1024;

/** Removes the line break(s) an editor or `echo` leaves at the end. */
export function stripTrailingNewlines(text: string): string {
  return text.replace(/[\r\n]+$/, '');
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxSecretBytes) throw configError('--app-secret-stdin: stdin holds more than 64 KiB, which is not an app secret');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads the app secret named by `--app-secret-file` or `--app-secret-stdin`, trailing newline stripped.
 * Returns undefined when neither flag is given; the two together are a usage error.
 */
export async function readSecret(
  options: ReadSecretOptions,
  io: { cwd: string; stdin: Readable },
): Promise<SecretInput | undefined> {
  if (options.appSecretFile !== undefined && options.appSecretStdin) {
    throw usageError('--app-secret-file and --app-secret-stdin cannot be used together', 'choose one source for the app secret');
  }
  let value: string;
  let source: string;
  if (options.appSecretFile !== undefined) {
    const file = path.resolve(io.cwd, options.appSecretFile);
    source = `flag --app-secret-file ${file}`;
    try {
      const buffer = await readWholeFile(file);
      if (buffer.length > maxSecretBytes) throw configError(`--app-secret-file ${file} is larger than 64 KiB, which is not an app secret`);
      value = buffer.toString('utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw configError(`--app-secret-file ${file} does not exist`, 'check the path');
      if (code === 'EACCES' || code === 'EPERM') throw configError(`--app-secret-file ${file} is not readable: permission denied`);
      if (code === 'EISDIR') throw configError(`--app-secret-file ${file} is a directory`, 'point it at the file holding the secret');
      throw error;
    }
  } else if (options.appSecretStdin) {
    source = 'flag --app-secret-stdin';
    value = await readAll(io.stdin);
  } else {
    return undefined;
  }
  value = stripTrailingNewlines(value);
  if (value === '') throw configError(`the app secret from ${source.replace(/^flag /, '')} is empty`);
  return { value, source };
}
