// A message that says `"dry_run": true` given to a real send: the service would check it and deliver
// nothing, while the run read as sent and its --once key as done. A body copied from a dry run (the inbox
// shows it so, and its compose panel edits it) must not pass for the real send (docs/behaviour.md#once).
// Pure: the CLI's send and the inbox's compose panel ask the same question.
import { CliError, usageError } from '../errors.js';

/** The error for a message marked as a dry run on its way to a real send, or undefined. */
export function dryRunConflict(message: Readonly<Record<string, unknown>>, dryRun: boolean): CliError | undefined {
  if (dryRun || message.dry_run !== true) return undefined;
  return usageError(
    'the message says "dry_run": true, but send delivers: the service would deliver it to no one while the run read as sent',
    'remove "dry_run" from the message to send it, or use pushctl dry-run to have it checked',
  );
}
