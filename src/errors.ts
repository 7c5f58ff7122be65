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

const CLI_ERROR = Symbol.for('pushctl.CliError');

/** An error the CLI expects and explains: a one-line message, an exit code, and an optional hint. */
export class CliError extends Error {
  /**
   * Each command is bundled into a file of its own, with its own copy of this class; the brand lets
   * `instanceof` in main.ts recognise an error thrown by any copy.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [CLI_ERROR]?: unknown })[CLI_ERROR] === true;
  }

  readonly [CLI_ERROR] = true;

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
