// Each command's options go through one schema; a bad value is a usage error naming the flag, the range,
// the value given and an example.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../src/errors.js';
import { checkOptions, parseOptions, wholeNumber } from '../../../src/commands/shared/check-options.js';
import { deliveryOptionsSchema } from '../../../src/commands/shared/delivery-options.js';
import { sendOptionsSchema } from '../../../src/commands/send/options.js';

const schema = z.object({ port: wholeNumber('port', 0, 65_535, '--port 8787'), keepMb: z.optional(wholeNumber('keep-mb', 1, 16_384, '--keep-mb 96')) });

const failure = (run: () => void): CliError => {
  try {
    run();
  } catch (error) {
    return error as CliError;
  }
  throw new Error('no error');
};

describe('checkOptions', () => {
  it.each([
    [{ port: 70_000 }, '--port must be a whole number from 0 to 65535, got 70000', 'for example --port 8787'],
    [{ port: 1.5 }, 'got 1.5', undefined],
    [{ port: 8787, keepMb: 0 }, '--keep-mb must be a whole number from 1 to 16384, got 0', 'for example --keep-mb 96'],
  ])('%j → a usage error naming the flag', (options, message, hint) => {
    const error = failure(() => checkOptions(schema, options));
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain(message);
    if (hint) expect(error.hint).toBe(hint);
  });

  it('passes good options, and the delivery options use the same path', () => {
    expect(() => checkOptions(schema, { port: 0, keepMb: 96 })).not.toThrow();
    const error = failure(() => parseOptions(deliveryOptionsSchema, { batchSize: '1001' }));
    expect(error.message).toBe('--batch-size 1001 is out of range');
    expect(error.hint).toContain('use 1 to 1000');
    // The flag's text becomes the number the run uses.
    expect(parseOptions(deliveryOptionsSchema, { batchSize: '250', rate: '0' })).toEqual({ batchSize: 250, rate: 0 });
  });
});

// --once and where the journal goes are rules of send's options, so the CLI, dry-run, the action and the
// MCP tools refuse the same combinations, before anything is read.
describe('send options: --once', () => {
  it.each([
    [{ once: '  ' }, '--once needs a key', 'e.g. --once release-1.4.0'],
    [{ once: 'r1', journal: false }, '--once needs the run journal, which is how a re-run finds the earlier run', 'drop --no-journal (PUSHCTL_JOURNAL_DIR chooses where journals go)'],
    [{ once: 'r1', journal: 'run.jsonl' }, '--once finds earlier runs in the journal directory, and --journal names one file outside it', 'drop --journal, and choose the directory with PUSHCTL_JOURNAL_DIR if needed'],
  ])('%j → a usage error with the next step', (options, message, hint) => {
    const error = failure(() => parseOptions(sendOptionsSchema, { title: 'Hi', all: true, ...options }));
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(message);
    expect(error.hint).toBe(hint);
  });

  it('takes a key with the journal directory, and --no-journal without a key', () => {
    expect(parseOptions(sendOptionsSchema, { title: 'Hi', all: true, once: 'release-1.4.0' }).once).toBe('release-1.4.0');
    expect(parseOptions(sendOptionsSchema, { title: 'Hi', all: true, journal: false }).journal).toBe(false);
  });
});
