import path from 'node:path';
import type { Readable } from 'node:stream';
import { CliError, ExitCode, configError, usageError } from '../errors.js';
import { InputInterruptedError, InputTooLargeError, readStreamCapped, readWholeFile } from '../read-whole-file.js';

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

/** Why a secret could not be read, in words that name where it was looked for. */
function secretError(error: unknown, where: string): CliError {
  if (error instanceof InputInterruptedError) return new CliError(`interrupted while waiting for the app secret from ${where}`, ExitCode.interrupted, 'nothing was sent');
  if (error instanceof InputTooLargeError) return configError(`${where} holds more than 64 KiB, which is not an app secret`, 'check what it points at: an app secret is a short token');
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return configError(`${where} does not exist`, 'check the path');
  if (code === 'EACCES' || code === 'EPERM') return configError(`${where} is not readable: permission denied`, 'make it readable by you (its owner can chmod 600 it), or set PUSHCTL_APP_SECRET');
  if (code === 'EISDIR') return configError(`${where} is a directory`, 'point it at the file holding the secret');
  return configError(`cannot read ${where}: ${code ?? String(error)}`, 'check what it points at');
}

/** Where an empty secret goes instead: an empty pipe or file is most often a variable that was not set. */
function emptySecretHint(options: ReadSecretOptions, cwd: string): string {
  if (options.appSecretFile !== undefined) return `put the secret in ${path.resolve(cwd, options.appSecretFile)}, or set PUSHCTL_APP_SECRET`;
  return `pipe the secret in (printf '%s' "$SECRET" | pushctl ... --app-secret-stdin), or set PUSHCTL_APP_SECRET`;
}

/**
 * Reads the app secret named by `--app-secret-file` or `--app-secret-stdin`, trailing newline stripped.
 * Returns undefined when neither flag is given; the two together are a usage error.
 */
export async function readSecret(
  options: ReadSecretOptions,
  io: { cwd: string; stdin: Readable; interrupt?: AbortSignal },
): Promise<SecretInput | undefined> {
  if (options.appSecretFile !== undefined && options.appSecretStdin) {
    throw usageError('--app-secret-file and --app-secret-stdin cannot be used together', 'choose one source for the app secret');
  }
  const limits = { maxBytes: maxSecretBytes, signal: io.interrupt };
  let value: string;
  let source: string;
  if (options.appSecretFile !== undefined) {
    const file = path.resolve(io.cwd, options.appSecretFile);
    source = `flag --app-secret-file ${file}`;
    try {
      value = (await readWholeFile(file, limits)).toString('utf8');
    } catch (error) {
      throw secretError(error, `--app-secret-file ${file}`);
    }
  } else if (options.appSecretStdin) {
    source = 'flag --app-secret-stdin';
    try {
      value = (await readStreamCapped(io.stdin, limits)).toString('utf8');
    } catch (error) {
      throw secretError(error, '--app-secret-stdin (stdin)');
    }
  } else {
    return undefined;
  }
  value = stripTrailingNewlines(value);
  if (value === '') throw configError(`the app secret from ${source.replace(/^flag /, '')} is empty`, emptySecretHint(options, io.cwd));
  return { value, source };
}
