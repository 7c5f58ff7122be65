import { CliError } from '../../src/errors.js';

/** The CliError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejectionOf(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof CliError) return error;
  throw new Error(`expected a CliError, got ${String(error)}`);
}

/** The CliError `run` throws; fails the test if it returns or throws anything else. */
export function thrownBy(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a CliError, and nothing was thrown');
}
