// The mistakes of a newcomer's first hour, caught before anything is sent: input → exit code, the culprit
// named, the fix suggested. Each row runs the built CLI; nothing here needs the network.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { DESC_DISPLAY_CHARS, TITLE_DISPLAY_CHARS } from '../../src/message/display-limits.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-first-hour-'));
  writeFileSync(join(dir, 'devices.csv'), 'device_id,country\ndevice-1,DE\ndevice-2,FR\n');
  // A header naming client_id is read as that column (docs/behaviour.md#variants).
  writeFileSync(join(dir, 'clients.csv'), 'client_id,country\ndevice-1,DE\ndevice-2,FR\n');
  writeFileSync(join(dir, 'no-header.csv'), 'device-1,DE\ndevice-2,FR\n');
  // Client-ID inputs that hold no ID at all: blank lines, a CSV header alone, a report with nothing left.
  writeFileSync(join(dir, 'blank.txt'), '\n  \n\n');
  writeFileSync(join(dir, 'header-only.csv'), 'client_id,language\r\n');
  const done = { batches: { total: 1, accepted: 0, rejected: 0, in_doubt: 1, not_sent: 0 }, recipients: { total: 2, accepted: 1, rejected: 0, in_doubt: 1, not_sent: 0 } };
  writeFileSync(join(dir, 'done-report.json'), `{\n  "version": 1,\n  "run_id": "20261101-000000-abcd",\n  "summary": ${JSON.stringify(done)},\n  "accepted": [\n    {"batch":0,"message_id":"m","client_ids":["device-1"]}\n  ],\n  "rejected": [],\n  "in_doubt": [\n    {"batch":1,"reason":"timeout","client_ids":["device-2"]}\n  ],\n  "not_sent": []\n}\n`);
  // The comma after "Hi" on line 7 makes the "}" on line 8, column 3 unexpected.
  writeFileSync(
    join(dir, 'trailing.json'),
    ['{', '  "type": 1,', '  "time_to_live": 3600,', '  "condition": { "type": 0 },', '  "notification": {', '    "desc": "x",', '    "title": "Hi",', '  }', '}', ''].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_ID: 'demo-app', PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_BASE_URL: 'http://127.0.0.1:9', ...extra });

interface Row {
  name: string;
  args: string[];
  env?: Record<string, string>;
  code: number;
  /** What stderr must say: the culprit, and the fix. */
  says: RegExp[];
  /** What it must not say. */
  not?: RegExp[];
}

const long = (n: number) => 'x'.repeat(n);

const rows: Row[] = [
  {
    name: 'a client-ID file that is CSV with a header that names no client_id column',
    args: ['send', '--client-ids-file', 'devices.csv', '--title', 'Hi'],
    code: 3,
    says: [/device_id,country/, /header/, /comma/, /cut -d, -f1/],
  },
  {
    name: 'a client-ID file that is CSV whose header names client_id: that column is read',
    args: ['validate', '--client-ids-file', 'clients.csv', '--title', 'Hi'],
    code: 0,
    says: [/^valid/],
  },
  {
    name: 'a client-ID file that is CSV without a header',
    args: ['validate', '--client-ids-file', 'no-header.csv', '--title', 'Hi'],
    code: 3,
    says: [/line 1/, /comma/, /cut -d, -f1/],
  },
  {
    name: 'a client-ID file of blank lines is named, not "add client_ids or pass --client-id"',
    args: ['validate', '--client-ids-file', 'blank.txt', '--title', 'Hi'],
    code: 3,
    says: [/--client-ids-file blank\.txt holds no client ID/, /hint: .*one client ID per line/],
    not: [/pass --client-id/],
  },
  {
    name: 'a CSV of a header alone is named with what it lacks',
    args: ['send', '--client-ids-file', 'header-only.csv', '--title', 'Hi'],
    code: 3,
    says: [/--client-ids-file header-only\.csv holds no client ID/],
    not: [/pass --client-id/],
  },
  {
    name: 'a report with nothing left to send says so, and that --include-in-doubt adds those in doubt',
    args: ['send', '--client-ids-file', 'done-report.json', '--title', 'Hi'],
    code: 3,
    says: [/done-report\.json has no client ID left to send/, /1 in doubt/, /--include-in-doubt/],
    not: [/pass --client-id/],
  },
  {
    name: 'validate of the same report says the same',
    args: ['validate', '--client-ids-file', 'done-report.json', '--title', 'Hi'],
    code: 3,
    says: [/done-report\.json has no client ID left to send/, /--include-in-doubt adds them/],
  },
  {
    name: 'a title the notification shade would cut: a warning, still valid',
    args: ['validate', '--all', '--title', long(TITLE_DISPLAY_CHARS + 1)],
    code: 0,
    says: [/warnings:/, new RegExp(`notification\\.title: ${TITLE_DISPLAY_CHARS + 1} characters.*cut`), new RegExp(`${TITLE_DISPLAY_CHARS}`)],
  },
  {
    name: 'a desc the notification shade would cut, with --strict: an error',
    args: ['validate', '--all', '--title', 'Hi', '--desc', long(DESC_DISPLAY_CHARS + 1), '--strict'],
    code: 3,
    says: [/notification\.desc: .*cut/],
  },
  {
    name: '--ttl 2 days',
    args: ['send', '--all', '--title', 'Hi', '--ttl', '2', 'days'],
    code: 2,
    says: [/"days"/, /--ttl 2d/],
    not: [/too many arguments/],
  },
  {
    name: 'send --all "Hello world"',
    args: ['send', '--all', 'Hello world'],
    code: 2,
    says: [/"Hello world"/, /--title 'Hello world'/],
    not: [/too many arguments/],
  },
  {
    name: 'send --dry-run',
    args: ['send', '--dry-run', '--all', '--title', 'Hi'],
    code: 2,
    says: [/--dry-run/, /pushctl dry-run --all --title Hi/],
  },
  {
    name: 'config set appId x',
    args: ['config', 'set', 'appId', 'x'],
    code: 2,
    says: [/config only shows/, /pushctl init --app-id x/],
    not: [/too many arguments/],
  },
  {
    name: 'a trailing comma in a message file',
    args: ['validate', '-f', 'trailing.json'],
    code: 3,
    says: [/trailing comma at line 7, column 18/, /remove the comma/],
    not: [/line 8/],
  },
  {
    name: 'a trailing comma under GitHub Actions: an annotation on the file',
    args: ['validate', '-f', 'trailing.json'],
    env: { GITHUB_ACTIONS: 'true' },
    code: 3,
    says: [/^::error file=trailing\.json,line=7,col=18,title=pushctl%3A json::.*trailing comma/m],
  },
  {
    name: '--small-icon-color FF0000',
    args: ['validate', '--all', '--title', 'Hi', '--small-icon-color', 'FF0000'],
    code: 3,
    says: [/"FF0000" is not a colour/, /"#FF0000"/],
  },
  {
    name: '--small-icon-color #FFF',
    args: ['validate', '--all', '--title', 'Hi', '--small-icon-color', '#FFF'],
    code: 3,
    says: [/"#FFF" is not a colour/, /"#FFFFFF"/],
  },
  {
    name: '--small-icon-color 0xff0000',
    args: ['validate', '--all', '--title', 'Hi', '--small-icon-color', '0xff0000'],
    code: 3,
    says: [/"#FF0000"/],
  },
  {
    name: '--ttl 90 minutes',
    args: ['validate', '--all', '--title', 'Hi', '--ttl', '90', 'minutes'],
    code: 2,
    says: [/"minutes"/, /--ttl 90m/],
  },
  {
    name: 'a text value with a space left unquoted',
    args: ['validate', '--all', '--title', 'Hello', 'world'],
    code: 2,
    says: [/"world"/, /--title 'Hello world'/],
  },
  {
    name: 'a stray word with --json: the one envelope on stdout, the culprit in it',
    args: ['send', '--all', 'Hello world', '--json'],
    code: 2,
    says: [/"Hello world"/],
  },
  {
    name: 'runs shwo',
    args: ['runs', 'shwo', 'x'],
    code: 2,
    says: [/'runs shwo'/, /did you mean 'runs show'/],
  },
  {
    name: 'normalisation notes are not printed under errors',
    args: ['validate', '--title', 'Hi', '--country', 'gb', '--small-icon-color', 'FF0000'],
    code: 3,
    says: [/invalid/],
    not: [/normalised/, /→ "GB"/],
  },
  {
    name: 'normalisation notes are printed when the message is valid',
    args: ['validate', '--title', 'Hi', '--country', 'gb'],
    code: 0,
    says: [/normalised/],
  },
];

describe('mistakes caught before sending', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const r = await runCli(row.args, { env: env(row.env), cwd: dir });
      expect(r.code, r.stderr).toBe(row.code);
      for (const pattern of row.says) expect(r.stderr).toMatch(pattern);
      for (const pattern of row.not ?? []) expect(r.stderr).not.toMatch(pattern);
    });
  }
});

describe('validate takes a report or journal as send does', () => {
  it('--include-in-doubt, which its hint names, checks the message to the recipients in doubt', async () => {
    const r = await runCli(['validate', '--client-ids-file', 'done-report.json', '--title', 'Hi', '--include-in-doubt', '--json'], { env: env(), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { body: { condition: { client_ids: string[] } } }).body.condition.client_ids).toEqual(['device-2']);
  });
});
