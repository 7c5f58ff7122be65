// The CLI's words said in the tools' terms: a flag that stands for an argument is named as the argument, one of
// the server's own command line as the server's, and a command to run in a shell keeps its flags.
import { describe, expect, it } from 'vitest';
import { dataStrings, documentInToolTerms, inToolTerms } from '../../../src/commands/mcp/tool-terms.js';

const ARGS = new Set(['message', 'vars', 'type', 'ttl', 'to', 'all', 'clientId', 'country', 'language', 'style', 'once', 'includeInDoubt', 'profile', 'limit']);

describe('inToolTerms', () => {
  it.each([
    ['add "condition", or pass --all, --client-id or a targeting flag such as --country', 'add "condition", or give `all`, `clientId` or a targeting argument such as `country`'],
    ['pass --var name=...', 'give `vars`: {"name": "…"}'],
    ['--to nope: no audiences are configured', '`to` "nope": no audiences are configured'],
    ['--to needs an audience name', '`to` needs an audience name'],
    ['--to my-phones and --all both choose recipients', '`to` "my-phones" and `all` both choose recipients'],
    ['--ttl "5x" is not a duration', '`ttl` "5x" is not a duration'],
    ['--all and --client-id/--client-ids-file choose recipients in different ways', '`all` and `clientId` choose recipients in different ways'],
    ['no --type given: sending a notification (1)', 'no `type` given: sending a notification (1)'],
    ['if it answers 21005, use --style system', 'if it answers 21005, use `style`: "system"'],
    ['name the languages to reach instead, e.g. --language fr,en: each variant', 'name the languages to reach instead, e.g. `language`: ["fr", "en"]: each variant'],
    ['profile "eu" (from flag --profile) was selected', 'profile "eu" (from `profile`) was selected'],
    ['set PUSHCTL_JOURNAL_DIR to a writable directory, or pass --no-journal (then a kill loses the record)', 'set PUSHCTL_JOURNAL_DIR to a writable directory'],
    ['check the file given to -f/--file', 'check the file given to `message`'],
    ['--var fills {{placeholders}} in a message file, but no --file was given', '`vars` fills {{placeholders}} in `message`, but no `message` was given'],
    ['add -f message.json, or drop --var', 'add `message`, or drop `vars`'],
    ['pass --app-id, set PUSHCTL_APP_ID', "give the server's --app-id, set PUSHCTL_APP_ID"],
    ['list the runs with `pushctl runs`, or give the path of a journal file', 'list the runs with list_runs, or give the path of a journal file'],
    ['wait for it to end (pushctl runs shows it), then give it again', 'wait for it to end (list_runs shows it), then give it again'],
    ['LEFT not sent or in doubt: see runs show <run>', 'LEFT not sent or in doubt: see show_run'],
    ['nothing is left to send (see pushctl runs show 2026-a)', 'nothing is left to send (see show_run {"run": "2026-a"})'],
    ['drop it; pushctl runs show <run> --report <path> writes one', 'drop it; pushctl runs show <run> --report <path> writes one'],
    // A run id is taken whole or not at all: the command with --report stays as printed.
    ['a report of every recipient: pushctl runs show 20261125-125621-28cf --report report.json', 'a report of every recipient: pushctl runs show 20261125-125621-28cf --report report.json'],
    ['report: pushctl runs show ./runs/r.jsonl --report report.json', 'report: pushctl runs show ./runs/r.jsonl --report report.json'],
    ['may have been delivered; not retried without --retry-in-doubt', 'may have been delivered; not retried'],
    ['set PUSHCTL_JOURNAL_DIR to a writable directory, give --journal a writable path', 'set PUSHCTL_JOURNAL_DIR to a writable directory'],
    ['client IDs are printable text; check the file given to --client-ids-file', "client IDs are printable text; check the audience's client_ids_file"],
    ['this is a bug in pushctl; rerun with --verbose and report what it prints', "this is a bug in pushctl; rerun with the server's --verbose and report what it prints"],
    ['the service refused the number of client IDs; resend with a lower --batch-size', 'the service refused the number of client IDs; resend them from a shell with a lower batch size (pushctl resend <run> --batch-size <n>)'],
    // Every answer carries its structured content, which lists what the text shortens: there is no --json to give.
    ['  message_ids a, b (+28 more; --json lists all)', '  message_ids a, b (+28 more; the structured content lists all)'],
    // No call retries a request in doubt.
    ['pushctl did not retry, to avoid sending it twice (--retry-in-doubt retries).', 'pushctl did not retry, to avoid sending it twice.'],
  ])('%s', (cli, tool) => {
    expect(inToolTerms(cli, ARGS)).toBe(tool);
  });

  it('keeps a command to run in a shell as printed, in a code span or after "with:"', () => {
    expect(inToolTerms('send the 3 recipients not sent with: pushctl resend 2026-x --app-id a --base-url http://h; 1 in doubt', ARGS)).toBe('send the 3 recipients not sent with: pushctl resend 2026-x --app-id a --base-url http://h; 1 in doubt');
    expect(inToolTerms('create it with: pushctl init --profile eu --app-id <id>, or point --config at your file', ARGS)).toBe("create it with: pushctl init --profile eu --app-id <id>, or point the server's --config at your file");
    expect(inToolTerms('restart with `pushctl mcp --allow-send` (--to x)', ARGS)).toBe('restart with `pushctl mcp --allow-send` (`to` "x")');
  });
});

describe('inToolTerms, with the data an answer shows', () => {
  it("never rewords the message's own words where the text shows them (a run's title in a table)", () => {
    expect(inToolTerms('title      Use --all now (runs show x)\nhint: pass --all', ARGS, ['Use --all now (runs show x)'])).toBe('title      Use --all now (runs show x)\nhint: give `all`');
  });

  // What a call gave, quoted back to it, is what it gave: `unknown argument "--desc"` reworded as "`desc`"
  // (did you mean "desc"?) named an argument the call never passed, and hid the mistake it made.
  it.each([
    ['send_message: unknown argument "--desc" (did you mean "desc"?)', 'send_message: unknown argument "--desc" (did you mean "desc"?)'],
    ['--to "--all": no such audience', '`to` "--all": no such audience'],
    // The value of `--to <name>`, quoted by the rewording itself, is as much the call's.
    ['--to --all: no such audience', '`to` "--all": no such audience'],
    ['--ttl "-f 1h" is not a duration; use --ttl 1h', '`ttl` "-f 1h" is not a duration; use `ttl` 1h'],
    ['title "say \\"--all\\" here" is too long; pass --all', 'title "say \\"--all\\" here" is too long; give `all`'],
  ])('keeps a quoted value as given: %s', (cli, tool) => {
    expect(inToolTerms(cli, new Set([...ARGS, 'title', 'desc']))).toBe(tool);
  });
});

describe('dataStrings', () => {
  it('are the strings of a body or a title that a rewording would touch, no others', () => {
    const document = { run: { title: 'Use --all now', app_id: 'a' }, body: { notification: { title: 'plain', desc: 'see -f x' }, condition: { client_ids: ['device-01'] } }, error: { message: '--to x' } };
    expect(dataStrings(document)).toEqual(['Use --all now', 'see -f x']);
  });
});

describe('documentInToolTerms', () => {
  it("rewords pushctl's prose (message, hint, fix), never the message as sent, a title or a command", () => {
    const document = {
      error: { message: '--to x: unknown', hint: 'pass --all' },
      errors: [{ path: 'condition', message: 'is required', fix: 'pass --all' }],
      body: { notification: { title: 'use --all' }, data: { hint: '--to' } },
      run: { title: 'pass --all', resend_command: 'pushctl resend r --include-in-doubt' },
    };
    expect(documentInToolTerms(document, ARGS)).toEqual({
      error: { message: '`to` "x": unknown', hint: 'give `all`' },
      errors: [{ path: 'condition', message: 'is required', fix: 'give `all`' }],
      body: document.body,
      run: document.run,
    });
  });
});
