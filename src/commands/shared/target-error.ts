// An error of one target of several, before anything was sent to any (docs/behaviour.md#targets): named by its
// profile (escaped: a config file is data), and said once that nothing went anywhere.
import { CliError } from '../../errors.js';
import { escapeControl } from '../../output/escape-control.js';

export function targetError(profile: string, error: CliError, hint: string | undefined = error.hint): CliError {
  // "nothing was sent" of the one target is said by the wider words for every target.
  const message = error.message.replace(/; nothing was sent$/, '');
  return new CliError(`profile ${escapeControl(profile)}: ${message}; nothing was sent to any target`, error.exitCode, hint);
}
