// Named audiences (docs/behaviour.md#audiences): `--to <name>` on the built CLI against the emulator, with the
// audiences of a real config file, and `pushctl config` / `pushctl init --audience` on the same file.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runCli, runProcess, type CliResult } from '../helpers/run-cli.js';

const SECRET = 'audience-S3CR3T-5e1d';
const APP = 'aud-app';

let emulator: Emulator;
let root: string;
/** The config file's directory: client-ID files are named relative to it. */
let project: string;
/** Where the commands run: elsewhere, so a file relative to the working directory would not be found. */
let elsewhere: string;
let config: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.clear();
  root = mkdtempSync(join(tmpdir(), 'pushctl-audiences-'));
  project = join(root, 'project');
  elsewhere = join(root, 'elsewhere');
  mkdirSync(join(project, 'lists'), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(project, 'lists', 'testers.txt'), 'tester-1\ntester-2\n\n  tester-3  \ntester-2\n');
  config = join(project, 'pushctl.json');
  writeFileSync(
    config,
    JSON.stringify({
      appId: APP,
      baseUrl: emulator.url,
      audiences: {
        'my-phones': { client_ids: ['phone-a', 'phone-b'] },
        testers: { client_ids_file: 'lists/testers.txt' },
        'india-hi': { targeting: { country: ['IN'], language: ['hi'] } },
        everyone: 'all',
      },
      profiles: { staging: { audiences: { 'my-phones': { client_ids: ['staging-phone'] } } } },
    }),
  );
  return () => rmSync(root, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(args, { env: cleanEnv({ HOME: root, XDG_CONFIG_HOME: join(root, '.config'), PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: join(root, 'runs'), ...env }), cwd: elsewhere });
const send = (...args: string[]) => cli(['send', '--config', config, '--title', 'Hi', ...args]);
const last = () => emulator.messages(APP).at(-1)!;

describe('--to <name>', () => {
  it('sends to the inline client IDs of an audience', async () => {
    const r = await send('--to', 'my-phones');
    expect(r.code, r.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 2, client_ids: ['phone-a', 'phone-b'] });
  });

  it('reads a client-ID file relative to the config file, not the working directory', async () => {
    const r = await send('--to', 'testers', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 2, client_ids: ['tester-1', 'tester-2', 'tester-3'] });
    expect(JSON.parse(r.stdout)).toMatchObject({ summary: { recipients: { total: 3, accepted: 3 } } });
  });

  it('sends a targeting audience as condition type 1, and "all" as type 0 (dry-run)', async () => {
    const targeted = await cli(['dry-run', '--config', config, '--title', 'Hi', '--to', 'india-hi']);
    expect(targeted.code, targeted.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 1, targeting: { country: ['IN'], language: ['hi'] } });
    expect(last().dry_run).toBe(true);
    const all = await send('--to', 'everyone');
    expect(all.code, all.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 0 });
  });

  it("takes a profile's audience over the top level's of the same name", async () => {
    const r = await send('--to', 'my-phones', '--profile', 'staging');
    expect(r.code, r.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 2, client_ids: ['staging-phone'] });
  });

  it('validate shows the body the audience makes, with no credentials', async () => {
    const r = await cli(['validate', '--config', config, '--title', 'Hi', '--to', 'testers', '--json'], { PUSHCTL_APP_SECRET: '' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body.condition).toEqual({ type: 2, client_ids: ['tester-1', 'tester-2', 'tester-3'] });
  });

  it('an unknown name is a usage error (exit 2) listing the names; nothing is sent', async () => {
    const r = await send('--to', 'my-phone');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to my-phone: no such audience');
    expect(r.stderr).toContain('did you mean "my-phones"? audiences: my-phones, testers, india-hi, everyone');
    expect(emulator.messages(APP)).toEqual([]);
  });

  // A name that reads as a flag, or as more than one word, is quoted: `--to --file: no such audience` read as
  // two flags, and the action's words for it ("the to input the file input") named an input nobody set.
  it('an unknown name that is no plain word is quoted as given', async () => {
    for (const [name, shown] of [
      ['--file', '"--file"'],
      ['my phone', '"my phone"'],
    ]) {
      const r = await send(`--to=${name}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--to ${shown}: no such audience`);
    }
    expect(emulator.messages(APP)).toEqual([]);
  });

  it('a client-ID file of an audience that is missing or empty is named by the audience, not by a flag never typed', async () => {
    rmSync(join(project, 'lists', 'testers.txt'));
    const missing = await send('--to', 'testers');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`hint: check the "client_ids_file" of audience "testers" in ${config}`);
    expect(missing.stderr).not.toContain('--client-ids-file');
    writeFileSync(join(project, 'lists', 'testers.txt'), '\n\n');
    const empty = await cli(['validate', '--config', config, '--title', 'Hi', '--to', 'testers']);
    expect(empty.code).toBe(3);
    expect(empty.stderr).toContain(`the "client_ids_file" of audience "testers" in ${config}, holds no client ID`);
    expect(empty.stderr).not.toContain('--client-ids-file');
    expect(emulator.messages(APP)).toEqual([]);
  });

  it('with several profiles, a profile\'s own audience is named as such, not "no such audience"', async () => {
    const two = join(project, 'two.json');
    writeFileSync(two, JSON.stringify({ audiences: { mine: { client_ids: ['b'] } }, profiles: { eu: { appId: APP, baseUrl: emulator.url, audiences: { 'eu-phones': { client_ids: ['a'] } } }, us: { appId: `${APP}-us`, baseUrl: emulator.url } } }));
    const r = await cli(['dry-run', '--config', two, '--title', 'Hi', '--to', 'eu-phones', '--profile', 'eu,us'], { PUSHCTL_APP_SECRET: '', PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to eu-phones is an audience of profile eu; with several profiles --to takes an audience of the top level');
    expect(r.stderr).toMatch(/hint: move "eu-phones" to the top level's "audiences"/);
    expect(emulator.messages(APP)).toEqual([]);
  });

  it('with no config file at all, says how to add one', async () => {
    const r = await cli(['validate', '--title', 'Hi', '--to', 'my-phones']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no audiences are configured (no config file was found)');
    expect(r.stderr).toContain('pushctl init --audience my-phones=');
  });

  it('the init command it suggests, pasted into a shell with the IDs filled in, adds the audience of the odd name given', async () => {
    for (const name of ["Ana's phones", '$(touch pwned)', '-desk']) {
      const r = await cli(['validate', '--title', 'Hi', `--to=${name}`]);
      expect(r.code).toBe(2);
      const suggested = /pushctl init (--audience[ =].*?), or write "audiences"/.exec(r.stderr)?.[1];
      expect(suggested, r.stderr).toBeDefined();
      const file = join(mkdtempSync(join(root, 'suggested-')), 'pushctl.json');
      const pasted = `"${process.execPath}" "${BIN}" init --config "${file}" ${suggested!.replace('<client-id>,<client-id>', 'p1,p2')}`;
      const run = await runProcess('/bin/sh', ['-c', pasted], { env: cleanEnv({ HOME: root }), cwd: root });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8')).audiences).toEqual({ [name]: { client_ids: ['p1', 'p2'] } });
    }
    expect(readdirSync(root)).not.toContain('pwned');
  });

  for (const other of [['--all'], ['--client-id', 'x'], ['--client-ids-file', 'ids.txt'], ['--country', 'IN']]) {
    it(`--to with ${other[0]} is a usage error naming both`, async () => {
      const r = await send('--to', 'my-phones', ...other);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--to my-phones and ${other[0]} both choose recipients`);
      expect(emulator.messages(APP)).toEqual([]);
    });
  }

  it('--once fingerprints who the recipients are, not their order: a list read in another order is the same run', async () => {
    // A CI job's list from a query without ORDER BY: the same people, another order.
    const first = await send('--client-id', 'phone-a,phone-b,phone-c', '--once', 'order-1');
    expect(first.code, first.stderr).toBe(0);
    const again = await send('--client-id', 'phone-c,phone-a,phone-b', '--once', 'order-1');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already done');
    expect(emulator.messages(APP)).toHaveLength(1);
    // Another person is another audience.
    const other = await send('--client-id', 'phone-c,phone-a,phone-d', '--once', 'order-1');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('used this key for another message or audience');
  });

  it('--once fingerprints the recipients, not the flag: the same IDs by --client-id are the same run', async () => {
    const first = await send('--to', 'my-phones', '--once', 'hello-1');
    expect(first.code, first.stderr).toBe(0);
    const again = await send('--client-id', 'phone-a,phone-b', '--once', 'hello-1');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('hello-1');
    expect(emulator.messages(APP)).toHaveLength(1);
    // Another audience under the same key is another announcement, refused.
    const other = await send('--to', 'testers', '--once', 'hello-1');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('used this key for another message or audience');
  });
});

describe('--to with a message of language variants', () => {
  const variantsFile = () => {
    const file = join(root, 'variants.json');
    writeFileSync(file, JSON.stringify({ type: 1, time_to_live: 3600, notification: { title: 'Hello', desc: 'New' }, variants: { fr: { notification: { title: 'Bonjour' } } } }));
    return file;
  };
  const withAudiences = (audiences: Record<string, unknown>) => writeFileSync(config, JSON.stringify({ appId: APP, baseUrl: emulator.url, audiences }));

  // --to takes no --language (it is another recipient flag): the way out is the audience's own targeting.
  it('an audience by condition without languages: the fix is the audience in the config file, and following it sends', async () => {
    withAudiences({ kenya: { targeting: { country: ['KE'] } } });
    for (const command of ['validate', 'send']) {
      const r = await cli([command, '--config', config, '-f', variantsFile(), '--to', 'kenya']);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout + r.stderr).toContain(`add "language": ["fr", "en"] to the targeting of audience "kenya" in ${config}`);
      expect(r.stdout + r.stderr).not.toMatch(/--language/);
    }
    expect(emulator.messages(APP)).toHaveLength(0);
    withAudiences({ kenya: { targeting: { country: ['KE'], language: ['fr', 'en'] } } });
    const sent = await cli(['send', '--config', config, '-f', variantsFile(), '--to', 'kenya']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(emulator.messages(APP).map((m) => m.body.condition.targeting?.language)).toEqual([['fr'], ['en']]);
  });

  it('an audience of every device: the fix makes it an audience by languages', async () => {
    withAudiences({ everyone: 'all' });
    const r = await cli(['send', '--config', config, '-f', variantsFile(), '--to', 'everyone']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`make audience "everyone" in ${config} a targeting that lists the languages, e.g. {"targeting": {"language": ["fr", "en"]}}`);
    expect(r.stderr).not.toMatch(/--language/);
  });
});

describe('pushctl config lists the audiences', () => {
  it('with their sizes or conditions, in words and as JSON', async () => {
    const human = await cli(['config', '--config', config]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('audiences   my-phones: 2 client IDs\n');
    // The IDs a send would reach: tester-2 twice is one recipient, as it is in an inline list.
    expect(human.stdout).toContain(`            testers: ${join(project, 'lists', 'testers.txt')}: 3 client IDs\n`);
    expect(human.stdout).toContain('            india-hi: condition: country IN; language hi\n');
    expect(human.stdout).toContain('            everyone: all devices\n');
    const json = JSON.parse((await cli(['config', '--config', config, '--json'])).stdout);
    expect(json.audiences).toEqual([
      { name: 'my-phones', kind: 'client_ids', client_ids: 2 },
      { name: 'testers', kind: 'client_ids_file', file: join(project, 'lists', 'testers.txt'), client_ids: 3 },
      { name: 'india-hi', kind: 'targeting', targeting: { country: ['IN'], language: ['hi'] } },
      { name: 'everyone', kind: 'all' },
    ]);
  });

  it('pushctl check prints them as config does (it prints what config prints), whatever its probe answers', async () => {
    const config_ = await cli(['config', '--config', config, '--json']);
    const human = await cli(['check', '--config', config]);
    expect(human.stdout).toContain('audiences   my-phones: 2 client IDs\n');
    expect(human.stdout).toContain('            everyone: all devices\n');
    const json = JSON.parse((await cli(['check', '--config', config, '--json'])).stdout);
    expect(json.settings.audiences).toEqual(JSON.parse(config_.stdout).audiences);
  });

  it('counts what a send reads from the file: the IDs of a CSV (not its header line), the recipients left in a report', async () => {
    writeFileSync(join(project, 'lists', 'devices.csv'), 'client_id,country,language\r\nd1,KE,fr\r\nd2,KE,en\r\n"d3",US,de\r\n');
    writeFileSync(join(project, 'lists', 'report.json'), JSON.stringify({ version: 1, accepted: [{ batch: 0, client_ids: ['r1', 'r2'] }], in_doubt: [{ batch: 1, client_ids: ['r3'] }], not_sent: [{ batch: 2, client_ids: ['r4', 'r5'] }] }));
    writeFileSync(config, JSON.stringify({ audiences: { devices: { client_ids_file: 'lists/devices.csv' }, retry: { client_ids_file: 'lists/report.json' } } }));
    const r = await cli(['config', '--config', config, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.audiences).toMatchObject([{ name: 'devices', client_ids: 3 }, { name: 'retry', client_ids: 2 }]);
    const sent = await send('--to', 'devices', '--app-id', APP, '--base-url', emulator.url);
    expect(sent.code, sent.stderr).toBe(0);
    expect(last().body.condition.client_ids).toHaveLength(3);
  });

  it("counts a large file's IDs, and names a missing file as a warning", async () => {
    writeFileSync(join(project, 'lists', 'testers.txt'), Array.from({ length: 300_000 }, (_, i) => `id-${i}`).join('\r\n'));
    writeFileSync(config, JSON.stringify({ audiences: { big: { client_ids_file: 'lists/testers.txt' }, gone: { client_ids_file: 'lists/none.txt' } } }));
    const r = await cli(['config', '--config', config, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.audiences[0]).toMatchObject({ name: 'big', client_ids: 300_000 });
    expect(doc.audiences[1]).toMatchObject({ name: 'gone', client_ids: null, problem: 'no such file' });
    expect(doc.warnings).toContain(`audience "gone": cannot read its client-ID file ${join(project, 'lists', 'none.txt')}: no such file`);
  });

  it('refuses an audience of the wrong shape, naming it (exit 6)', async () => {
    writeFileSync(config, JSON.stringify({ audiences: { bad: { client_ids: 'phone-a' } } }));
    const r = await cli(['config', '--config', config]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('"audiences.bad" is not an audience');
    expect(r.stderr).toContain('{"client_ids_file": "ids.txt"}');
    writeFileSync(config, JSON.stringify({ profiles: { ci: { audiences: { india: { targeting: { countri: ['IN'] } } } } } }));
    const typo = await cli(['config', '--config', config]);
    expect(typo.code).toBe(6);
    expect(typo.stderr).toContain('unknown key "profiles.ci.audiences.india.targeting.countri"');
    expect(typo.stderr).toContain('did you mean "country"?');
  });
});

describe('pushctl init --audience', () => {
  it('adds an audience beside the settings already there, and --to sends to it', async () => {
    const r = await cli(['init', '--config', config, '--audience', 'desk=desk-1,desk-2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).keys).toEqual(['audiences.desk']);
    const written = JSON.parse(readFileSync(config, 'utf8'));
    expect(written.appId).toBe(APP);
    expect(written.audiences.desk).toEqual({ client_ids: ['desk-1', 'desk-2'] });
    expect(written.audiences['my-phones']).toEqual({ client_ids: ['phone-a', 'phone-b'] });
    const sent = await send('--to', 'desk');
    expect(sent.code, sent.stderr).toBe(0);
    expect(last().body.condition).toEqual({ type: 2, client_ids: ['desk-1', 'desk-2'] });
  });

  it('writes a new file with settings and an audience in one go, under a profile too', async () => {
    const file = join(root, 'new.json');
    const r = await cli(['init', '--config', file, '--app-id', APP, '--base-url', emulator.url, '--audience', 'mine=m1', '--profile', 'dev', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { dev: { appId: APP, baseUrl: emulator.url, audiences: { mine: { client_ids: ['m1'] } } } } });
  });

  it('refuses to replace an audience of the same name without --force, and a malformed flag', async () => {
    const taken = await cli(['init', '--config', config, '--audience', 'my-phones=other']);
    expect(taken.code).toBe(6);
    expect(taken.stderr).toContain('already has an audience "my-phones"');
    const forced = await cli(['init', '--config', config, '--audience', 'my-phones=other', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8')).audiences['my-phones']).toEqual({ client_ids: ['other'] });
    const malformed = await cli(['init', '--config', config, '--audience', 'nobody']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--audience "nobody" is not name=id,id');
  });

  it('refuses one name given twice in one command, which kept only the last list (nothing written)', async () => {
    const before = readFileSync(config, 'utf8');
    const r = await cli(['init', '--config', config, '--audience', 'desk=desk-1,desk-2', '--audience', 'desk=desk-3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --audience desk is given twice$/m);
    expect(r.stderr).toMatch(/^hint: give its client IDs once: --audience desk=desk-1,desk-2,desk-3$/m);
    expect(readFileSync(config, 'utf8')).toBe(before);
  });
});
