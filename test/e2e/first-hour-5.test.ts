// The first hour, round 5: what a newcomer met walking the README, help and errors with the built CLI.
// Each row runs bin/pushctl.cjs; nothing here reaches the network (the base URL is a closed loopback port).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-first-hour-5-'));
  writeFileSync(
    join(dir, '.pushctlrc.json'),
    JSON.stringify({
      appId: 'demo-app',
      baseUrl: 'http://127.0.0.1:9',
      audiences: { 'uk-users': { targeting: { country: ['UK'], language: ['en'] } }, phones: { client_ids: ['phone-1'] } },
    }),
  );
  writeFileSync(
    join(dir, 'variants.json'),
    JSON.stringify({ type: 1, time_to_live: 3600, notification: { title: 'New' }, variants: { de: { notification: { title: 'Neu' } } } }),
  );
  mkdirSync(join(dir, 'runs'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCli(args, { cwd: dir, env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), PUSHCTL_APP_SECRET: 'demo-secret' }) });

describe('a flag of `runs` given to `runs show`', () => {
  it('is refused naming the command it belongs to, not silently ignored', async () => {
    const r = await cli(['runs', 'show', 'some-run', '--limit', '3']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: --limit is an option of `pushctl runs`, not of `pushctl runs show`$/m);
    expect(r.stderr).toMatch(/^hint: remove --limit; pushctl runs show --help lists what runs show takes$/m);
  });

  it('is not listed in runs show --help', async () => {
    const r = await cli(['runs', 'show', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/--limit/);
    // The program's own flags are still listed, and runs show's own --json once.
    expect(r.stdout).toMatch(/^ {2}--verbose\b/m);
    expect(r.stdout.split('\n').filter((line) => /^ +--json\b/.test(line))).toHaveLength(1);
  });

  it('runs --limit still lists the runs', async () => {
    const r = await cli(['runs', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('help <command> <subcommand>', () => {
  it('prints the subcommand\'s help, as <command> <subcommand> --help does', async () => {
    const [viaHelp, direct] = await Promise.all([cli(['help', 'runs', 'show']), cli(['runs', 'show', '--help'])]);
    expect(viaHelp.code).toBe(0);
    expect(direct.stdout).toMatch(/^Usage: pushctl runs show /);
    expect(viaHelp.stdout).toBe(direct.stdout);
  });

  it('names a subcommand that does not exist, with the nearest', async () => {
    const r = await cli(['help', 'runs', 'shwo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'runs shwo' \(did you mean 'runs show'\?\)/);
  });
});

describe('flags other push tools have, under their names here', () => {
  it.each([
    ['--device', 'device-1', '--client-id'],
    ['--token', 'abc', '--client-id'],
    ['--message', 'Hello', '--desc'],
    ['--url', 'https://example.com', '--open-url'],
  ])('%s %s is pointed to %s, not to the nearest spelling', async (flag, value, meant) => {
    const r = await cli(['send', '--all', '--title', 'Hi', flag, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: unknown option '${flag}'$`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^hint: did you mean ${meant}\\?`, 'm'));
  });

  it('--schedule says the service sends at once', async () => {
    const r = await cli(['send', '--all', '--title', 'Hi', '--schedule', '1h']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hint: .*instant/m);
  });

  it('a synonym whose flag the command lacks is not offered (config has no --client-id)', async () => {
    const r = await cli(['config', '--device', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/--client-id/);
  });
});

describe('validate with variants that leave the base message to no one', () => {
  it('says the base message is not sent, and prints only what is sent', async () => {
    const r = await cli(['validate', '-f', 'variants.json', '--language', 'de']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/and the base message, each checked whole/);
    expect(r.stderr).toMatch(/every recipient gets a variant: the base message itself is not sent/);
    const printed = JSON.parse(r.stdout) as Record<string, unknown>;
    // An empty language list means every language to the service: a base "as sent" with it would read as a push to all.
    expect(Object.keys(printed)).toEqual(['variants']);
  });
});

describe('an audience whose targeting is invalid', () => {
  it('names the audience and its config file beside the fix', async () => {
    const r = await cli(['validate', '--to', 'uk-users', '--title', 'Hi']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/condition\.targeting\.country\[0\]: "UK" is not an ISO 3166-1 alpha-2 country code — use GB in audience "uk-users" of .*\.pushctlrc\.json/);
    const json = await cli(['validate', '--to', 'uk-users', '--title', 'Hi', '--json']);
    const document = JSON.parse(json.stdout) as { errors: { path: string; fix?: string }[] };
    expect(document.errors[0]!.fix).toMatch(/^use GB in audience "uk-users" of .*\.pushctlrc\.json$/);
  });

  it('a finding the audience did not cause is left as it was', async () => {
    const r = await cli(['validate', '--to', 'uk-users', '--title', 'Hi', '--small-icon-color', 'red', '--json']);
    const document = JSON.parse(r.stdout) as { errors: { path: string; fix?: string }[] };
    const colour = document.errors.find((e) => e.path.endsWith('small_icon_color'));
    expect(colour?.fix ?? '').not.toMatch(/audience/);
  });
});

describe('an empty app secret', () => {
  it.each([
    [['--app-secret-stdin'], /^error: the app secret from --app-secret-stdin is empty\nhint: pipe the secret in \(printf '%s' "\$SECRET" \| pushctl \.\.\. --app-secret-stdin\), or set PUSHCTL_APP_SECRET$/m],
    [['--app-secret-file', 'empty-secret.txt'], /^error: the app secret from --app-secret-file \S+empty-secret\.txt is empty\nhint: put the secret in \S+empty-secret\.txt, or set PUSHCTL_APP_SECRET$/m],
  ])('%j names the next step', async (flags, says) => {
    writeFileSync(join(dir, 'empty-secret.txt'), '\n');
    const r = await cli(['send', '--all', '--title', 'Hi', ...flags]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(says);
  });
});

describe('an app secret with a character an HTTP header cannot carry', () => {
  it('is refused before sending, naming where the secret came from, never the secret', async () => {
    const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), PUSHCTL_APP_SECRET: 'demo\u2019secret' });
    const r = await runCli(['send', '--all', '--title', 'Hi'], { cwd: dir, env });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: the app secret from env PUSHCTL_APP_SECRET contains a character an HTTP header cannot carry \(beyond Latin-1, such as a curly quote\)$/m);
    expect(r.stderr).toMatch(/^hint: copy the secret again from the console of the Push Message Service, as plain text$/m);
    expect(r.stderr).not.toMatch(/sending to/);
    expect(r.stderr).not.toContain('demo\u2019secret');
  });
});

describe('config set, with a config file already there', () => {
  it.each([
    [['appId', 'new-app'], { appId: 'new-app', baseUrl: 'http://127.0.0.1:9' }],
    [['secret', 'x'], { appId: 'demo-app', baseUrl: 'http://127.0.0.1:9', appSecret: 'from-a-file' }],
  ])('config set %j names an init command that, typed, changes that setting and keeps the others', async (words, after) => {
    const project = mkdtempSync(join(dir, 'project-'));
    writeFileSync(join(project, '.pushctlrc.json'), JSON.stringify({ appId: 'demo-app', baseUrl: 'http://127.0.0.1:9' }));
    writeFileSync(join(project, 'secret.txt'), 'from-a-file\n');
    const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') });
    const refused = await runCli(['config', 'set', ...words], { cwd: project, env });
    expect(refused.code).toBe(2);
    const command = /pushctl (init [^,(]*?)(?: \(|,|$)/m.exec(refused.stderr.split('\n').find((line) => line.startsWith('hint:')) ?? '')?.[1];
    expect(command, refused.stderr).toBeDefined();
    const typed = await runCli(command!.replace('<path>', 'secret.txt').split(' '), { cwd: project, env });
    expect(typed.code, typed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.pushctlrc.json'), 'utf8'))).toEqual(after);
  });
});

/** A fresh home for one test (HOME, and XDG_CONFIG_HOME in it), removed after: no config of the machine's is read. */
async function inFreshHome(prefix: string, use: (root: string, env: Record<string, string | undefined>) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  try {
    await use(root, cleanEnv({ HOME: root, XDG_CONFIG_HOME: join(root, '.config') }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('init --audience beside settings found elsewhere', () => {
  it.each([
    ['the user config', (root: string) => join(root, '.config', 'pushctl', 'config.json')],
    ['a project config in a parent directory', (root: string) => join(root, '.pushctlrc.json')],
  ])('adds the audience to %s, the file in effect, instead of a new one here that would hide its settings', async (_, configAt) => {
    await inFreshHome('pushctl-init-audience-', async (root, env) => {
      const config = configAt(root);
      mkdirSync(join(config, '..'), { recursive: true });
      writeFileSync(config, JSON.stringify({ appId: 'demo-app', baseUrl: 'http://127.0.0.1:9' }));
      const cwd = join(root, 'project', 'sub');
      mkdirSync(cwd, { recursive: true });
      const added = await runCli(['init', '--audience', 'phones=phone-1,phone-2'], { cwd, env });
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout + added.stderr).toContain(`updated ${config}`);
      expect(existsSync(join(cwd, '.pushctlrc.json'))).toBe(false);
      expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ appId: 'demo-app', baseUrl: 'http://127.0.0.1:9', audiences: { phones: { client_ids: ['phone-1', 'phone-2'] } } });
      const shown = await runCli(['config'], { cwd, env });
      expect(shown.stdout).toMatch(/^app ID +demo-app \(config /m);
      expect(shown.stdout).toMatch(/phones: 2 client IDs/);
    });
  });

  it('refuses, by name, a config in effect it cannot rewrite (YAML), rather than hiding it', async () => {
    await inFreshHome('pushctl-init-audience-', async (root, env) => {
      writeFileSync(join(root, '.pushctlrc.yaml'), 'appId: demo-app\n');
      const r = await runCli(['init', '--audience', 'phones=phone-1'], { cwd: root, env });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/\.pushctlrc\.yaml/);
      expect(r.stderr).toMatch(/^hint: add "audiences" to it by hand/m);
      expect(existsSync(join(root, '.pushctlrc.json'))).toBe(false);
    });
  });
});

describe('init writing a new file that another config in effect would be hidden by', () => {
  it('warns, naming the file whose settings stop being read here and how to add to it instead', async () => {
    await inFreshHome('pushctl-init-shadow-', async (root, env) => {
      const user = join(root, '.config', 'pushctl', 'config.json');
      mkdirSync(join(user, '..'), { recursive: true });
      writeFileSync(user, JSON.stringify({ appId: 'demo-app', appSecret: 'demo-secret' }));
      const cwd = join(root, 'project');
      mkdirSync(cwd);
      const r = await runCli(['init', '--profile', 'india', '--app-id', 'demo-in', '--region', 'india', '--yes'], { cwd, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning: ${join(cwd, '.pushctlrc.json')} is found before ${user}, so commands run here no longer read that file's settings; to add to it instead: pushctl init -c ${user} ...`);
    });
  });
});

describe('init beside a config file of the same directory', () => {
  // The search reads one file per directory, the first of its list: a new .pushctlrc.json either hides the
  // file that was in effect, or is never read at all, behind package.json's "pushctl" key or a .pushctlrc.
  it('that the new file hides (.pushctlrc.yaml): warns, naming it', async () => {
    await inFreshHome('pushctl-init-same-dir-', async (root, env) => {
      writeFileSync(join(root, '.pushctlrc.yaml'), 'appId: old-app\n');
      const r = await runCli(['init', '--app-id', 'new-app', '--yes'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning: ${join(root, '.pushctlrc.json')} is found before ${join(root, '.pushctlrc.yaml')}, so commands run here no longer read that file's settings; to keep it, add these settings to it by hand and remove this file`);
      expect((await runCli(['config', '--json'], { cwd: root, env })).stdout).toContain('"new-app"');
    });
  });

  it.each([
    ['package.json', JSON.stringify({ name: 'x', pushctl: { appId: 'old-app' } }), 'put the settings in the "pushctl" key of package.json, or remove that key and run pushctl init again'],
    ['.pushctlrc', 'appId: old-app\n', 'put the settings in .pushctlrc, or remove it and run pushctl init again'],
  ])('that is found before the new file (%s): refused (exit 6), nothing written, the settings in effect unchanged', async (name, text, hint) => {
    await inFreshHome('pushctl-init-same-dir-', async (root, env) => {
      writeFileSync(join(root, name), text);
      const r = await runCli(['init', '--app-id', 'new-app', '--yes'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toContain(`error: a new ${join(root, '.pushctlrc.json')} would not be read: ${join(root, name)} is found before it in this directory`);
      expect(r.stderr).toContain(`hint: ${hint}`);
      expect(existsSync(join(root, '.pushctlrc.json'))).toBe(false);
      if (name === 'package.json') {
        // init --audience alone adds to the file in effect, which it cannot rewrite here: refused, for the true reason.
        const audience = await runCli(['init', '--audience', 'phones=phone-1'], { cwd: root, env });
        expect(audience.code, audience.stderr).toBe(6);
        expect(audience.stderr).toContain(`error: the config file in effect is ${join(root, name)}, which init cannot add to (it writes whole JSON files), and a new .pushctlrc.json here would not be read`);
      }
    });
  });
});

describe('init -c a file the search does not find', () => {
  it('says commands run here read it only when named, and how to name it', async () => {
    await inFreshHome('pushctl-init-named-', async (root, env) => {
      const r = await runCli(['init', '-c', 'custom.json', '--app-id', 'named-app', '--yes'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning: commands run here do not find ${join(root, 'custom.json')} by themselves: pass -c ${join(root, 'custom.json')}, or set PUSHCTL_CONFIG to it`);
      // A name the search reads, here: nothing to say.
      const found = await runCli(['init', '-c', '.pushctlrc.json', '--app-id', 'found-app', '--yes'], { cwd: root, env });
      expect(found.stderr).not.toContain('do not find');
    });
  });
});

describe('init --global from a project whose own config file is in effect', () => {
  it('says commands run there read the project file, and where the user config applies', async () => {
    await inFreshHome('pushctl-init-global-', async (root, env) => {
      const project = join(root, 'project');
      mkdirSync(project);
      writeFileSync(join(project, '.pushctlrc.json'), JSON.stringify({ appId: 'project-app' }));
      const r = await runCli(['init', '--global', '--app-id', 'user-app', '--yes'], { cwd: project, env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`warning: commands run here read ${join(project, '.pushctlrc.json')}, which is found before the user config; ${join(root, '.config', 'pushctl', 'config.json')} applies where no project file is found`);
    });
  });
});

describe('commands other tools have, under their names here', () => {
  it.each([
    ['push', 'did you mean send?'],
    ['publish', 'did you mean send?'],
    ['configure', 'did you mean init?'],
    ['login', 'did you mean init?'],
    ['status', 'did you mean check?'],
    ['doctor', 'did you mean check?'],
    ['list', 'did you mean runs?'],
    ['version', 'did you mean --version?'],
  ])('%s: %s', async (word, says) => {
    const r = await cli([word]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: unknown command '${word}'$`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^hint: ${says.replace(/[?]/g, '\\?')}`, 'm'));
  });
});

describe('a flag of another command', () => {
  it('validate --rate names the commands that take --rate, not the nearest spelling (--data)', async () => {
    const r = await cli(['validate', '--all', '--title', 'Hi', '--rate', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hint: --rate is a flag of pushctl send, dry-run, resend and serve, not of validate\. Run pushctl validate --help for the options$/m);
    expect(r.stderr).not.toMatch(/--data/);
  });

  it('config --title names the commands that take it', async () => {
    const r = await cli(['config', '--title', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hint: --title is a flag of pushctl validate, send and dry-run, not of config\./m);
  });
});

describe('config with profiles in the file and none chosen', () => {
  it('says so and how to choose one, where it showed "profile none" and the settings unset', async () => {
    await inFreshHome('pushctl-config-profiles-', async (root, env) => {
      writeFileSync(join(root, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: 'eu-app' }, us: { appId: 'us-app' } } }));
      const r = await runCli(['config'], { cwd: root, env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^warning: no profile is chosen, and the settings of profiles eu, us are not read: choose one with --profile eu or PUSHCTL_PROFILE=eu$/m);
      const json = await runCli(['config', '--json'], { cwd: root, env });
      expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toContainEqual(expect.stringMatching(/^no profile is chosen/));
    });
  });
});

describe('schema --output, as its help shows it', () => {
  it('writes .vscode/pushctl-message.schema.json in a project that has no .vscode folder yet', async () => {
    const project = mkdtempSync(join(dir, 'schema-'));
    const r = await runCli(['schema', '--output', '.vscode/pushctl-message.schema.json'], { cwd: project, env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(readFileSync(join(project, '.vscode', 'pushctl-message.schema.json'), 'utf8')) as { title: string }).title).toBe('pushctl message file');
  });

  it('a path under a file is still refused, naming it', async () => {
    const project = mkdtempSync(join(dir, 'schema-'));
    writeFileSync(join(project, 'a-file'), '');
    const r = await runCli(['schema', '--output', 'a-file/x.json'], { cwd: project, env: cleanEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write a-file\/x\.json: /m);
  });
});

describe('-v, the version flag of many tools', () => {
  it('is pointed to -V and --verbose', async () => {
    const r = await cli(['-v']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^hint: did you mean -V \(--version\)\? --verbose shows more detail\./m);
  });
});
