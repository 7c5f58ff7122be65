/** Exit codes of the CLI (docs/behaviour.md#exit-codes). */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  invalidMessage: 3,
  rejected: 4,
  network: 5,
  config: 6,
  partial: 7,
  /** Stopped by Ctrl-C (or SIGTERM, SIGHUP) before anything was done: the shell's convention for SIGINT. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, in the words docs/behaviour.md#exit-codes uses (the action's failure line, the JSON Schema). */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'success: every batch accepted',
  1: 'unexpected internal error in pushctl',
  2: 'usage error',
  3: 'the message is invalid; nothing was sent',
  4: 'the service rejected the request',
  5: 'network failure, timeout, or an unreadable response',
  6: 'configuration or credentials missing or unusable',
  7: 'a batched send partly failed: some batches accepted, some not',
  130: 'interrupted before anything was sent',
};

/** The meaning of an exit status; undefined for one pushctl never gives. */
export const exitMeaning = (code: number): string | undefined => (Object.hasOwn(EXIT_MEANINGS, code) ? EXIT_MEANINGS[code as ExitCode] : undefined);

/**
 * An error the CLI expects and explains: a one-line message, an exit code, and an optional hint.
 *
 * Every error class that crosses a module boundary lives in this file, and the build keeps one copy of it that
 * every bundle file shares (scripts/build.mjs), so a plain `instanceof` recognises an error thrown anywhere.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A CliError (exit 3) at a line and column of a named file, so that under GitHub Actions the CLI can annotate the file itself. */
export class FilePositionError extends CliError {
  constructor(
    message: string,
    hint: string | undefined,
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message, ExitCode.invalidMessage, hint);
  }
}

/** A client ID the collector refuses; `byte` is the offset within the raw line of invalid UTF-8. */
export class ClientIdError extends Error {
  constructor(
    message: string,
    readonly byte?: number,
  ) {
    super(message);
    this.name = 'ClientIdError';
  }
}

export const usageError = (message: string, hint?: string) => new CliError(message, ExitCode.usage, hint);
export const configError = (message: string, hint?: string) => new CliError(message, ExitCode.config, hint);
export const invalidMessageError = (message: string, hint?: string) =>
  new CliError(message, ExitCode.invalidMessage, hint);
