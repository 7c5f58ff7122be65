// The action's inputs read as a step gives them: a step has no stdin, so "-" names nothing.
import { describe, expect, it } from 'vitest';
import { actionRequest } from '../../../src/action/inputs.js';
import { ExitCode } from '../../../src/errors.js';
import { thrownBy } from '../../helpers/cli-error.js';

describe('an input that would read stdin', () => {
  it.each([
    [{ INPUT_FILE: '-' }, 'the file input is "-", which reads stdin, and a step has none', 'set file: to a file of the repository, e.g. file: release.json'],
    [{ INPUT_FILE: 'm.json', 'INPUT_CLIENT-IDS-FILE': '-' }, 'the client-ids-file input is "-", which reads stdin, and a step has none', 'set client-ids-file: to a file of the repository, e.g. client-ids-file: ids.txt'],
  ])('%j is refused (exit 2), naming the input', (env, message, hint) => {
    const error = thrownBy(() => actionRequest(env));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(message);
    expect(error.hint).toBe(hint);
  });

  it('journal-dir: - is refused (exit 2): a directory named "-" is no place the cache step restores', () => {
    const error = thrownBy(() => actionRequest({ INPUT_FILE: 'm.json', 'INPUT_JOURNAL-DIR': '-' }));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('the journal-dir input is "-", which would keep the run journals in a directory named "-"');
    expect(error.hint).toBe('set journal-dir: to a directory of the workspace, e.g. journal-dir: .pushctl/runs');
  });

  it('a path is taken as given', () => {
    expect(actionRequest({ INPUT_FILE: './-', 'INPUT_CLIENT-IDS-FILE': 'ids.txt' })).toMatchObject({ file: './-', clientIdsFile: 'ids.txt' });
  });
});
