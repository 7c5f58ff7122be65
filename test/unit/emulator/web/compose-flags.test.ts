// The compose panel's fields are the CLI's flags: the command it prints, read back by the CLI's own option
// definitions (commander, addMessageOptions), gives exactly the flags the page assembled its message from.
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFlagValues } from '../../../../src/cli-flag-values.js';
import { addMessageOptions } from '../../../../src/commands/shared/flags.js';
import { EMPTY_FIELDS, flagsOf, flagWords, sendCommand, sendJsonCommand, type ComposeFields } from '../../../../src/emulator/web/compose-flags.js';
import { shellWords } from '../../../helpers/shell-words.js';

function parsedByCli(command: string): Record<string, unknown> {
  const [pushctl, verb, ...argv] = shellWords(command);
  expect([pushctl, ['send', 'dry-run'].includes(verb!)]).toEqual(['pushctl', true]);
  const cmd = addMessageOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} })).option('--base-url <url>').option('--app-id <id>');
  // The CLI's own gate first: a value that reads as a flag (a title "--all") is refused unless attached.
  checkFlagValues(argv, cmd);
  cmd.parse(argv, { from: 'user' });
  const { baseUrl, appId, ...flags } = cmd.opts();
  expect([baseUrl, appId]).toEqual(['http://127.0.0.1:8787', 'demo-app']);
  return flags;
}

const to = { baseUrl: 'http://127.0.0.1:8787', appId: 'demo-app', dryRun: false };
// Text a person might type, including quotes, dashes, dollars, spaces and newlines.
const text = fc.oneof(fc.constant(''), fc.string({ maxLength: 12 }), fc.constantFrom("it's", '-5% off', '$HOME `x`', 'a\nb', '  padded ', '#1A73E8', '--all'));
const fields: fc.Arbitrary<ComposeFields> = fc.record({
  type: fc.constantFrom('notification', 'data'),
  audience: fc.constantFrom('all', 'client-ids', 'targeting'),
  clientIds: text,
  country: text,
  language: text,
  brand: text,
  model: text,
  osVersion: text,
  appVersion: text,
  title: text,
  desc: text,
  style: fc.constantFrom('system', 'button'),
  buttonText: text,
  icon: text,
  smallIcon: text,
  smallIconColor: text,
  onTap: fc.constantFrom('app', 'url', 'activity'),
  openContent: text,
  data: text,
  ttl: text,
  dryRun: fc.boolean(),
});

describe('compose fields as pushctl flags', () => {
  it('the printed command, parsed by the CLI, gives the flags the page used (any fields)', () => {
    fc.assert(
      fc.property(fields, (f) => {
        const words = flagWords(f);
        expect(parsedByCli(sendCommand(words, { ...to, dryRun: f.dryRun }))).toEqual(flagsOf(words));
      }),
      { numRuns: 300 },
    );
  });

  it('blank fields give no flag; a message from scratch is --all and nothing else', () => {
    expect(sendCommand(flagWords(EMPTY_FIELDS), to)).toBe('pushctl send --all --base-url http://127.0.0.1:8787 --app-id demo-app');
    // A blank line gives no flag; a value keeps the spaces at its end (they are part of what was typed).
    expect(flagWords({ ...EMPTY_FIELDS, type: 'data', data: 'a=1\n\n b=2 ' })).toEqual([['--all'], ['--type', 'data'], ['--data', 'a=1'], ['--data', 'b=2 ']]);
  });

  it('a dry run is pushctl dry-run, and the secret is never part of the command', () => {
    expect(sendCommand(flagWords({ ...EMPTY_FIELDS, title: 'Hi' }), { ...to, dryRun: true })).toBe('pushctl dry-run --all --title Hi --base-url http://127.0.0.1:8787 --app-id demo-app');
  });

  it('pasted JSON travels on stdin through a quoted here-document', () => {
    const json = '{\n  "type": 1\n}';
    expect(sendJsonCommand(json, to)).toBe(`pushctl send -f - --base-url http://127.0.0.1:8787 --app-id demo-app <<'JSON'\n${json}\nJSON`);
    expect(sendJsonCommand('JSON', to)).toMatch(/<<'JSON_'\nJSON\nJSON_$/);
  });
});
