// The action speaks in its own terms (issue 31): run as the runner runs it against the emulator, every line
// it prints (log, annotations, job summary) names its inputs and a re-run, never a CLI flag, an environment
// variable of the CLI or a path on the runner; counts are numbers and the audience is its own output; a
// rejection carries its code, meaning and hint; a skipped re-run still points at a report. The one exception
// is a command printed to be pasted into a shell (test/helpers/printed-commands.ts says exactly which text
// that is: a ```sh block, or a code span beginning `pushctl `): it is the CLI's, and must name its flags.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runStep, type StepRun } from '../helpers/action-step.js';
import { printedCommands } from '../helpers/printed-commands.js';
import { closedPort } from '../helpers/scripted-server.js';

const SECRET = 'terms-S3CR3T-5d1e';
const APP = 'terms-app';
const MESSAGE = '{"type": 1, "time_to_live": 3600, "condition": {"type": 0}, "notification": {"title": "Hi"}}';

let emulator: Emulator;
let work: string;
let closed: number;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  closed = await closedPort();
});
afterAll(() => emulator.close());
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-terms-'));
  writeFileSync(join(work, 'm.json'), MESSAGE);
  return () => rmSync(work, { recursive: true, force: true });
});

/** Flags of the CLI that stand for an input of the action, its variables, and the word "flag" for a source. */
const CLI_WORDS = /(^|[^\w-])(-f\/--file|--(file|base-url|app-id|app-secret-file|app-secret-stdin|region|var|client-ids-file|report|once|strict|rate|journal|insecure|dry-run|no-journal)\b|PUSHCTL_[A-Z_]+|\(flag |\(env )/;

const everything = (run: StepRun) => `${run.stdout}\n${run.stderr}\n${run.summary}`;

/** What the step says in its own words: everything but the shell commands it prints. */
const prose = (run: StepRun) => printedCommands(everything(run)).prose;

interface Row {
  name: string;
  inputs: () => Record<string, string>;
  /** What the log, annotations and summary must say. */
  says: RegExp[];
  not?: RegExp[];
  outputs?: Record<string, string>;
}

const rows: Row[] = [
  {
    name: 'an empty secret names the app-secret input once',
    inputs: () => ({ file: 'm.json', 'app-id': APP, 'base-url': emulator.url }),
    says: [/no app secret configured/, /set the app-secret input to a repository secret/],
    not: [/the app-secret input.*the app-secret input/, /pushctl init/, /mode 600/],
  },
  {
    name: 'a network failure: counts are numbers, the audience apart, the warning in words',
    inputs: () => ({ file: 'm.json', 'app-id': APP, 'app-secret': SECRET, 'base-url': `http://127.0.0.1:${closed}` }),
    // The command it offers is the CLI's, in a code span, with the flags that send where the run went.
    says: [/::warning title=pushctl%3A recipients left::the message to all devices not sent: set the once input and cache journal-dir, then re-run this job, or run `pushctl resend \S+ --app-id terms-app --base-url http:\/\/127\.0\.0\.1:\d+`$/m, /fix the base-url input/, /```sh\npushctl resend \S+ --app-id terms-app --base-url http:\/\/127\.0\.0\.1:\d+\n```/],
    not: [/1 all devices/, /sending to 127\.0\.0\.1:\d+ \(flag/],
    outputs: { accepted: '0', rejected: '0', 'not-sent': '0', audience: 'all devices' },
  },
  {
    name: 'a wrong secret: the annotation carries 21004, its meaning and the hint',
    inputs: () => ({ file: 'm.json', 'app-id': APP, 'app-secret': 'not-the-secret', 'base-url': emulator.url }),
    says: [/::error title=pushctl::pushctl exited 4, the service rejected the request: 21004 App Secret illegal.*\(the secret does not match this app ID/],
    outputs: { accepted: '0', rejected: '0', audience: 'all devices' },
  },
  {
    name: 'a message file that is not there names the file input',
    inputs: () => ({ file: 'missing.json', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url }),
    says: [/cannot read message file missing\.json: no such file \(check the path given to the file input\)/],
  },
  {
    name: 'plain http to another host names the base-url input',
    inputs: () => ({ file: 'm.json', 'app-id': APP, 'app-secret': SECRET, 'base-url': 'http://push.example.invalid' }),
    says: [/refusing plain http:\/\/ to push\.example\.invalid/, /https:\/\/push\.example\.invalid/],
  },
  {
    name: 'an accepted send: the counts and the audience',
    inputs: () => ({ file: 'm.json', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url }),
    says: [/## pushctl send: sent\n/],
    outputs: { 'exit-code': '0', accepted: '0', audience: 'all devices' },
  },
];

describe('the action in its own terms (as the runner runs it)', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const run = await runStep(work, row.inputs());
      const text = everything(run);
      expect(prose(run)).not.toMatch(CLI_WORDS);
      // No command is said outside the text that marks it as one.
      expect(prose(run)).not.toMatch(/pushctl (resend|runs)\b/);
      expect(text).not.toContain(work);
      for (const pattern of row.says) expect(text).toMatch(pattern);
      for (const pattern of row.not ?? []) expect(text).not.toMatch(pattern);
      if (row.outputs) expect(run.outputs).toMatchObject(row.outputs);
    });
  }

  it('mode validate: the fixes of the findings name the file\'s fields and the inputs, never a message flag', async () => {
    // Each file breaks rules whose fix, on the command line, offers a flag the action has no input for.
    const files = {
      'bare.json': { notification: { title: 'Hi' } },
      'broken.json': { type: 1, time_to_live: 0, condition: { type: 1 }, notification: { notification_type: 3, small_icon: 'x', open_type: '2' } },
      'no-ids.json': { type: 1, time_to_live: 3600, condition: { type: 2 }, notification: { title: 'Hi' } },
      'too-long.json': { type: 1, time_to_live: 99999999999, condition: { type: 0 }, notification: { desc: '' } },
      'button.json': { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hi', notification_type: 3, small_icon: 'x' } },
      'variants.json': { type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hi' }, variants: { fr: { notification: { title: 'Salut' } } } },
    };
    const messageFlags = /(^|[^\w-])--(type|ttl|all|client-id|country|language|title|desc|style|open-url)\b/;
    const said: string[] = [];
    for (const [name, message] of Object.entries(files)) {
      writeFileSync(join(work, name), JSON.stringify(message));
      const run = await runStep(work, { mode: 'validate', file: name });
      expect(run.code, everything(run)).toBe(name === 'button.json' ? 0 : 3);
      // A validation has no batches: its success is said as what it is.
      if (run.code === 0) expect(run.stdout).toContain('pushctl validate: exit 0 (the message is valid; nothing was sent).');
      said.push(everything(run));
    }
    const text = said.join('\n');
    expect(text).not.toMatch(messageFlags);
    expect(text).not.toMatch(CLI_WORDS);
    expect(text).toMatch(/add "time_to_live" in seconds/);
    expect(text).toMatch(/add "condition", or set the to or client-ids-file input/);
    expect(text).toMatch(/add "client_ids": \["\.\.\."\] or set the client-ids-file input/);
    expect(text).toMatch(/add "title" or "desc" in notification/);
    expect(text).toMatch(/every device with variants: .*e\.g\. "condition": \{"type": 1, "targeting": \{"language": \["fr","en"\]\}\}/);
  });

  it('an audience the config file lacks names the to input and the file, never --to or pushctl init', async () => {
    const ask = (config: object | undefined) => {
      if (config) writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify(config));
      return runStep(work, { file: 'm.json', to: 'my-phone', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url });
    };
    const none = await ask(undefined);
    const typo = await ask({ audiences: { 'my-phones': { client_ids: ['a'] } } });
    for (const run of [none, typo]) {
      expect(run.code, everything(run)).toBe(2);
      expect(everything(run)).toMatch(/the to input my-phone: no/);
      expect(everything(run)).not.toMatch(/--to\b|pushctl init/);
    }
    expect(everything(none)).toMatch(/write "audiences" in the config file/);
    expect(everything(typo)).toMatch(/did you mean "my-phones"\?/);
  });

  it('report with profiles: refused in the action\'s words, with no CLI command mangled into them', async () => {
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: APP, baseUrl: emulator.url }, us: { appId: `${APP}-us`, baseUrl: emulator.url } } }));
    const run = await runStep(work, { file: 'm.json', profiles: 'eu,us', report: 'r.json' }, { PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: SECRET });
    expect(run.code, everything(run)).toBe(2);
    expect(everything(run)).toMatch(/the report input writes one run's report; the profiles input eu,us makes 2 runs \(drop the report input/);
    expect(everything(run)).not.toMatch(/<run> the report input|pushctl runs show/);
  });

  it('client IDs: the counts are numbers and the audience output is empty', async () => {
    writeFileSync(join(work, 'ids.txt'), 'device-a\ndevice-b\n');
    const run = await runStep(work, { file: 'm.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url });
    expect(run.code, everything(run)).toBe(0);
    expect(run.outputs).toMatchObject({ accepted: '2', rejected: '0', 'in-doubt': '0', 'not-sent': '0', audience: '' });
  });

  it('once with another message under the same key: no runner path, the once input named', async () => {
    const inputs = { file: 'm.json', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url, once: 'release-9', 'journal-dir': join(work, 'journals') };
    expect((await runStep(work, inputs)).code).toBe(0);
    writeFileSync(join(work, 'm.json'), MESSAGE.replace('Hi', 'Hello'));
    const other = await runStep(work, inputs);
    expect(other.code).toBe(2);
    expect(everything(other)).toMatch(/the once input release-9: run \d{8}-\d{6}-[0-9a-f]{4} used this key for another message or audience; this run's message or recipients differ/);
    expect(everything(other)).not.toContain(work);
    expect(prose(other)).not.toMatch(CLI_WORDS);
  });

  it("a skipped re-run's report output is a report of the run it skipped, rebuilt from its journal", async () => {
    writeFileSync(join(work, 'ids.txt'), 'device-a\ndevice-b\n');
    const inputs = { file: 'm.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': emulator.url, once: 'release-10', 'journal-dir': join(work, 'journals'), report: 'report.json' };
    const first = await runStep(work, inputs);
    expect(first.code, everything(first)).toBe(0);
    const original = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8'));
    rmSync(join(work, 'report.json'));
    const again = await runStep(work, inputs);
    expect(again.code, everything(again)).toBe(0);
    expect(again.outputs).toMatchObject({ skipped: 'true', report: 'report.json', accepted: '2' });
    expect(existsSync(join(work, 'report.json'))).toBe(true);
    const rebuilt = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8'));
    expect(rebuilt).toEqual(original);
    expect(again.summary).toContain('report.json');
  });
});
