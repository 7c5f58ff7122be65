// The first hour, round 4 (issue 31): what the CLI says to a newcomer's config, durations, broken JSON files,
// other encodings and help. Each row runs the built CLI; nothing here reaches the network.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
const lines = (...text: string[]) => `${text.join('\n')}\n`;
/** The message files of the rows: name → bytes. */
const FILES: Record<string, string | Buffer> = {
  'missing-comma.json': lines('{', '  "type": 1,', '  "notification": {', '    "title": "Hi"', '    "desc": "x"', '  }', '}'),
  'missing-comma-array.json': lines('{', '  "condition": { "type": 2, "client_ids": ["a" "b"] }', '}'),
  'single-quotes.json': lines('{', "  'type': 1", '}'),
  'single-quoted-value.json': lines('{', '  "notification": { "title": \'Hi\' }', '}'),
  'line-comment.json': lines('{', '  "type": 1, // a notification', '  "time_to_live": 60', '}'),
  'block-comment.json': lines('/* release note */', '{ "type": 1 }'),
  'unquoted-key.json': lines('{', '  type: 1', '}'),
  'utf16le.json': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"type": 1}', 'utf16le')]),
  'utf16be.json': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('{"type": 1}', 'utf16le').swap16()]),
  'utf16le-no-bom.json': Buffer.from('{"type": 1}', 'utf16le'),
  'utf32le.json': Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x7b, 0, 0, 0, 0x7d, 0, 0, 0]),
  'ids-utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('device-1\n', 'utf16le')]),
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-first-hour-4-'));
  for (const [name, bytes] of Object.entries(FILES)) writeFileSync(join(dir, name), bytes);
  mkdirSync(join(dir, 'profiles'));
  writeFileSync(join(dir, 'profiles', '.pushctlrc.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:9', profiles: { ci: { appId: 'ci-app' }, staging: { appId: 'staging-app' } } }));
  mkdirSync(join(dir, 'weekly'));
  writeFileSync(join(dir, 'weekly', '.pushctlrc.json'), JSON.stringify({ appId: 'demo-app', timeout: '1w' }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Row {
  name: string;
  args: string[];
  /** Folder under the test's directory to run in (its config file is found there). */
  cwd?: string;
  code: number;
  /** What stderr (or stdout, with `out`) must say, and must not. */
  says: RegExp[];
  not?: RegExp[];
  out?: true;
}

const rows: Row[] = [
  // Profiles found, none chosen.
  {
    name: 'a config with profiles and none chosen names them and how to pick one',
    args: ['send', '--all', '--title', 'Hi'],
    cwd: 'profiles',
    code: 6,
    says: [/profiles ci, staging/, /none was chosen/, /--profile ci/, /PUSHCTL_PROFILE=ci/],
  },
  // Durations.
  { name: '--ttl 1w is a week', args: ['validate', '--all', '--title', 'Hi', '--ttl', '1w', '--json'], code: 0, out: true, says: [/"time_to_live": 604800/] },
  { name: '--ttl 2w', args: ['validate', '--all', '--title', 'Hi', '--ttl', '2w', '--json'], code: 0, out: true, says: [/"time_to_live": 1209600/] },
  { name: '--ttl 1 week (the unit apart)', args: ['validate', '--all', '--title', 'Hi', '--ttl', '1', 'week'], code: 2, says: [/--ttl 1w/] },
  { name: 'a timeout of 1w in a config file', args: ['config'], cwd: 'weekly', code: 0, out: true, says: [/timeout +1w/] },
  { name: '--ttl 0', args: ['validate', '--all', '--title', 'Hi', '--ttl', '0'], code: 2, says: [/--ttl 0 is too short: time_to_live is at least 1 second/, /^hint: e\.g\. --ttl 90s$/m], not: [/not a duration/, /default/] },
  { name: '--ttl 0s', args: ['validate', '--all', '--title', 'Hi', '--ttl', '0s'], code: 2, says: [/at least 1 second/] },
  { name: '--ttl hello names the units, weeks too', args: ['validate', '--all', '--title', 'Hi', '--ttl', 'hello'], code: 2, says: [/is not a duration/, /1w/] },
  // JSON syntax errors: the likely cause, where the fix goes.
  { name: 'a missing comma between entries', args: ['validate', '-f', 'missing-comma.json'], code: 3, says: [/missing comma at line 4, column 18/, /add a comma after "Hi"/] },
  { name: 'a missing comma in an array', args: ['validate', '-f', 'missing-comma-array.json'], code: 3, says: [/missing comma at line 2, column 47/, /after "a"/] },
  { name: 'single quotes around a name', args: ['validate', '-f', 'single-quotes.json'], code: 3, says: [/single quotes at line 2, column 3/, /double quotes/] },
  { name: 'single quotes around a value', args: ['validate', '-f', 'single-quoted-value.json'], code: 3, says: [/single quotes at line 2, column 30/, /"Hi"/] },
  { name: 'a // comment', args: ['validate', '-f', 'line-comment.json'], code: 3, says: [/comment at line 2, column 14/, /JSON has no comments/] },
  { name: 'a /* */ comment', args: ['validate', '-f', 'block-comment.json'], code: 3, says: [/comment at line 1, column 1/] },
  { name: 'a name without quotes', args: ['validate', '-f', 'unquoted-key.json'], code: 3, says: [/name without double quotes at line 2, column 3/, /"type"/] },
  // Other encodings named as such.
  { name: 'a UTF-16 LE file', args: ['validate', '-f', 'utf16le.json'], code: 3, says: [/utf16le\.json is UTF-16 LE \(it starts with the byte-order mark FF FE\), not UTF-8/, /save it as UTF-8/], not: [/byte 1/] },
  { name: 'a UTF-16 BE file', args: ['validate', '-f', 'utf16be.json'], code: 3, says: [/is UTF-16 BE \(it starts with the byte-order mark FE FF\)/] },
  { name: 'a UTF-32 LE file', args: ['validate', '-f', 'utf32le.json'], code: 3, says: [/is UTF-32 LE/] },
  { name: 'a UTF-16 LE file without a byte-order mark', args: ['validate', '-f', 'utf16le-no-bom.json'], code: 3, says: [/is UTF-16 LE \(every other byte is zero\)/] },
  { name: 'a client-ID file in UTF-16', args: ['validate', '--title', 'Hi', '--client-ids-file', 'ids-utf16.txt'], code: 3, says: [/the client-ID input is UTF-16 LE \(it starts with the byte-order mark FF FE\)/, /--client-ids-file as UTF-8/] },
  // A message to all devices that was not sent is one message, not "those".
  { name: 'the advice for a message to all devices not sent reads as one message', args: ['send', '--all', '--title', 'Hi'], code: 5, says: [/^the message to all devices not sent; to send it:\n {2}pushctl resend \S+/m], not: [/exactly those/] },
  // The help named is the subcommand's own, where the missing argument is listed.
  { name: 'runs show with no run names runs show --help', args: ['runs', 'show'], code: 2, says: [/missing required argument 'run'/, /hint: give <run>: a run id \(from `pushctl runs`\) or the path of a journal file\. Run pushctl runs show --help for the options/] },
  // What the missing argument is, and its values where it has a few: the next step itself.
  { name: 'completion with no shell names the shells', args: ['completion'], code: 2, says: [/missing required argument 'shell'/, /hint: give <shell>: bash, zsh or fish, e\.g\. pushctl completion bash\. Run pushctl completion --help for the options/] },
  // A negative number is a whole number out of range, not "not a whole number".
  { name: '--batch-size=-1 is out of range', args: ['send', '--all', '--title', 'Hi', '--batch-size=-1'], code: 2, says: [/--batch-size -1 is out of range/, /use 1 to 1000/], not: [/not a whole number/] },
  { name: 'runs --limit=-5 is out of range', args: ['runs', '--limit=-5'], code: 2, says: [/--limit -5 is out of range/], not: [/not a whole number/] },
  { name: '--rate 1.5 is not a whole number', args: ['send', '--all', '--title', 'Hi', '--rate', '1.5'], code: 2, says: [/--rate "1\.5" is not a whole number/] },
  // A flag cut short, as other tools accept it: the whole flag is suggested.
  { name: '--lang names --language', args: ['send', '--all', '--title', 'Hi', '--lang', 'en'], code: 2, says: [/unknown option '--lang'/, /did you mean --language\?/] },
  { name: '--app names --app-id', args: ['send', '--all', '--title', 'Hi', '--app', 'x'], code: 2, says: [/did you mean --app-id\?/] },
  { name: 'a flag of another command is not offered', args: ['config', '--lang', 'en'], code: 2, says: [/unknown option '--lang'/], not: [/did you mean/] },
];

describe('the first hour, round 4: the CLI', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: 'demo-secret', ...(row.cwd ? {} : { PUSHCTL_APP_ID: 'demo-app', PUSHCTL_BASE_URL: 'http://127.0.0.1:9' }) });
      const r = await runCli(row.args, { env, cwd: row.cwd ? join(dir, row.cwd) : dir });
      expect(r.code, r.stderr).toBe(row.code);
      const text = row.out ? r.stdout : r.stderr;
      for (const pattern of row.says) expect(text).toMatch(pattern);
      for (const pattern of row.not ?? []) expect(text).not.toMatch(pattern);
    });
  }
});

describe('help lists each option once', () => {
  it.each([
    [['runs', 'show', '--help'], '--json'],
    [['runs', '--help'], '--json'],
    [['send', '--help'], '--desc'],
    [['send', '--help'], '--verbose'],
  ])('%j lists %s once', async (args, flag) => {
    const r = await runCli(args);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter((line) => new RegExp(`^ +(-\\w, )?${flag}\\b`).test(line))).toHaveLength(1);
  });

  it('send --help says a client-ID file may be a CSV with languages, and shows --to and a profile list', async () => {
    const r = await runCli(['send', '--help']);
    expect(r.stdout).toMatch(/--client-ids-file <path> +client IDs, one per line, or a CSV with\s+client_id \(and language\) columns/);
    expect(r.stdout).toMatch(/^ {2}\$ pushctl send --to my-phones /m);
    expect(r.stdout).toMatch(/^ {2}\$ pushctl send .*--profile global,india$/m);
  });

  it('send --help names --body as the alias of --desc', async () => {
    const r = await runCli(['send', '--help']);
    expect(r.stdout).toMatch(/^ +--desc <text> +notification\.desc \(alias: --body\)/m);
  });
});

describe('an empty run id', () => {
  // Every run id starts with "": with one run journaled, `runs show ''` showed it, and with none it read the
  // working directory as a journal.
  it.each([[['runs', 'show']], [['resend']], [['resend', '--dry-run']]])('%j "" and "  " are usage errors, whether or not runs exist', async (command) => {
    const home = mkdtempSync(join(tmpdir(), 'pushctl-empty-run-'));
    try {
      const env = cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_JOURNAL_DIR: join(home, 'runs'), PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_APP_ID: 'demo-app', PUSHCTL_BASE_URL: 'http://127.0.0.1:9' });
      for (const runs of [0, 1]) {
        if (runs === 1) expect((await runCli(['send', '--all', '--title', 'Hi', '--max-attempts', '1'], { env, cwd: home })).code).toBe(5);
        for (const blank of ['', '  ']) {
          const r = await runCli([...command, blank], { env, cwd: home });
          expect(r.code, r.stdout + r.stderr).toBe(2);
          expect(r.stderr).toContain('error: the run to read is empty');
          expect(r.stderr).toContain('hint: give a run id from `pushctl runs`');
          expect(r.stdout).toBe('');
        }
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
