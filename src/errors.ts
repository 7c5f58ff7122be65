/** Exit codes of the CLI (SPEC section 2). */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  invalidMessage: 3,
  rejected: 4,
  network: 5,
  config: 6,
  partial: 7,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI expects and explains: a one-line message, an exit code, and an optional hint. */
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

export const usageError = (message: string, hint?: string) => new CliError(message, ExitCode.usage, hint);
export const configError = (message: string, hint?: string) => new CliError(message, ExitCode.config, hint);
export const invalidMessageError = (message: string, hint?: string) =>
  new CliError(message, ExitCode.invalidMessage, hint);
