import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { loadConfigFile, searchDirs, userConfigDir } from '../../../src/settings/load.js';
import { useSandbox } from './helpers.js';
import { rejectionOf } from '../../helpers/cli-error.js';

const box = useSandbox();


const load = (cwd = box.project, explicitPath?: string, env = box.env) => loadConfigFile({ cwd, explicitPath, env, platform: 'linux' });

describe('finding the config file', () => {
  it('returns null when there is none', async () => {
    expect(await load()).toBeNull();
  });

  it('reads .pushctlrc.json', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appId": "json-app", "region": "india"}');
    expect(await load()).toEqual({ filepath: file, config: { appId: 'json-app', region: 'india' }, origin: 'search', warnings: [] });
  });

  it('reads .pushctlrc.yaml', async () => {
    await box.write('home/project/.pushctlrc.yaml', 'appId: yaml-app\nprofiles:\n  ci:\n    region: india\n');
    expect((await load())?.config).toEqual({ appId: 'yaml-app', profiles: { ci: { region: 'india' } } });
  });

  it('reads .pushctlrc without extension as YAML or JSON', async () => {
    await box.write('home/project/.pushctlrc', 'appId: rc-app\n');
    expect((await load())?.config).toEqual({ appId: 'rc-app' });
  });

  it('reads the "pushctl" key of package.json', async () => {
    await box.write('home/project/package.json', JSON.stringify({ name: 'x', pushctl: { appId: 'pkg-app' } }));
    expect((await load())?.config).toEqual({ appId: 'pkg-app' });
  });

  it('skips a package.json without the key and keeps searching upward', async () => {
    await box.write('home/project/package.json', JSON.stringify({ name: 'x' }));
    const file = await box.write('home/.pushctlrc.json', '{"appId": "home-app"}');
    expect((await load())?.filepath).toBe(file);
  });

  it('reads pushctl.config.mjs', async () => {
    await box.write('home/project/pushctl.config.mjs', 'export default { appId: "mjs-app" };\n');
    expect((await load())?.config).toEqual({ appId: 'mjs-app' });
  });

  // pushctl.config.js is read, so a user writes the same settings as pushctl.config.json (or .yaml): it was
  // passed over, and every command said no config file was found.
  it.each([
    ['pushctl.config.json', '{"appId": "config-json-app"}'],
    ['pushctl.config.yaml', 'appId: config-json-app\n'],
    ['pushctl.config.yml', 'appId: config-json-app\n'],
  ])('reads %s, as it reads pushctl.config.js', async (name, text) => {
    const file = await box.write(`home/project/${name}`, text);
    expect(await load()).toEqual({ filepath: file, config: { appId: 'config-json-app' }, origin: 'search', warnings: [] });
  });

  it('searches upward from a nested directory', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appId": "up"}');
    const nested = path.join(box.project, 'a', 'b', 'c');
    await mkdir(nested, { recursive: true });
    expect((await load(nested))?.filepath).toBe(file);
  });

  it('the nearest file wins', async () => {
    await box.write('home/project/.pushctlrc.json', '{"appId": "outer"}');
    await box.write('home/project/a/.pushctlrc.yaml', 'appId: inner\n');
    expect((await load(path.join(box.project, 'a')))?.config.appId).toBe('inner');
  });

  it('does not search above the home directory', async () => {
    await box.write('.pushctlrc.json', '{"appId": "above-home"}');
    expect(await load()).toBeNull();
  });

  it('falls back to the user config directory from the given env', async () => {
    const file = await box.write('home/.config/pushctl/config.json', '{"appId": "user-app"}');
    expect(await load()).toMatchObject({ filepath: file, config: { appId: 'user-app' } });
  });

  it('honours XDG_CONFIG_HOME', async () => {
    const file = await box.write('xdg/pushctl/config.yaml', 'appId: xdg-app\n');
    const env = { ...box.env, XDG_CONFIG_HOME: path.join(box.root, 'xdg') };
    expect((await load(box.project, undefined, env))?.filepath).toBe(file);
  });

  it('a project file beats the user config directory', async () => {
    await box.write('home/.config/pushctl/config.json', '{"appId": "user-app"}');
    await box.write('home/project/.pushctlrc.json', '{"appId": "project-app"}');
    expect((await load())?.config.appId).toBe('project-app');
  });
});

describe('explicit path', () => {
  it('loads --config relative to cwd, even with an unusual name', async () => {
    const file = await box.write('home/project/conf/settings.json', '{"appId": "explicit"}');
    expect(await load(box.project, 'conf/settings.json')).toMatchObject({ filepath: file, origin: 'flag', config: { appId: 'explicit' } });
  });

  it('loads PUSHCTL_CONFIG, and --config beats it', async () => {
    const fromEnv = await box.write('home/env.json', '{"appId": "env"}');
    const fromFlag = await box.write('home/flag.json', '{"appId": "flag"}');
    const env = { ...box.env, PUSHCTL_CONFIG: fromEnv };
    expect(await load(box.project, undefined, env)).toMatchObject({ filepath: fromEnv, origin: 'env' });
    expect(await load(box.project, fromFlag, env)).toMatchObject({ filepath: fromFlag, origin: 'flag' });
  });

  it('a missing explicit file is a config error naming the path', async () => {
    const error = await rejectionOf(load(box.project, 'nope.json'));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toBe(`config file ${path.join(box.project, 'nope.json')} does not exist`);
    expect(error.hint).toContain('--config');
  });

  it('a missing PUSHCTL_CONFIG file names the variable', async () => {
    // A path in this test's own directory: a fixed path such as /nonexistent/x.json may exist on the machine.
    const error = await rejectionOf(load(box.project, undefined, { ...box.env, PUSHCTL_CONFIG: path.join(box.project, 'no-such-dir', 'x.json') }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.hint).toContain('PUSHCTL_CONFIG');
  });

  it('an empty explicit file is an empty config', async () => {
    await box.write('home/project/empty.json', '');
    expect((await load(box.project, 'empty.json'))?.config).toEqual({});
  });

  it('a package.json without the key is a config error', async () => {
    await box.write('home/project/package.json', '{"name": "x"}');
    expect((await rejectionOf(load(box.project, 'package.json'))).message).toContain('has no "pushctl" key');
  });
});

describe('validation', () => {
  it('an unknown key is a config error naming the file, the key and the fix', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appid": "x"}');
    const error = await rejectionOf(load());
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toBe(`invalid config file ${file}: unknown key "appid" (did you mean "appId"?)`);
    expect(error.hint).toBe('rename "appid" to "appId"');
  });

  it('a wrong type in a profile is a config error that does not quote the value', async () => {
    await box.write('home/project/.pushctlrc.yaml', 'profiles:\n  ci:\n    appSecret: 987654321\n');
    const error = await rejectionOf(load());
    expect(error.message).toContain('"profiles.ci.appSecret" must be a string, not a number');
    expect(`${error.message} ${error.hint}`).not.toContain('987654321');
  });

  it('a syntax error is a config error naming the file', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appId": ');
    const error = await rejectionOf(load());
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain(`cannot parse config file ${file}`);
  });
});

describe('permissions', () => {
  it.skipIf(process.platform === 'win32')('warns when a file holding appSecret is readable by others', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appSecret": "canary-perm-5150"}', 0o644);
    await chmod(file, 0o644);
    const loaded = await load();
    expect(loaded?.warnings).toHaveLength(1);
    expect(loaded?.warnings[0]).toContain('readable by group or others (mode 644)');
    expect(loaded?.warnings[0]).toContain(`chmod 600 ${file}`);
    expect(loaded?.warnings[0]).not.toContain('canary-perm-5150');
  });

  it.skipIf(process.platform === 'win32')('warns for a secret in a profile readable by group', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"profiles": {"ci": {"appSecret": "s"}}}');
    await chmod(file, 0o640);
    expect((await load())?.warnings).toHaveLength(1);
  });

  it('does not warn for mode 600, nor for a readable file without a secret', async () => {
    const file = await box.write('home/project/.pushctlrc.json', '{"appSecret": "s"}');
    await chmod(file, 0o600);
    expect((await load())?.warnings).toEqual([]);
    await box.write('home/project/.pushctlrc.json', '{"appId": "a"}', 0o644);
    await chmod(file, 0o644);
    expect((await load())?.warnings).toEqual([]);
  });
});

describe('paths', () => {
  it('userConfigDir follows the platform and env', () => {
    expect(userConfigDir({ HOME: '/h' }, 'linux')).toBe('/h/.config/pushctl');
    expect(userConfigDir({ HOME: '/h', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/pushctl');
    expect(userConfigDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Preferences/pushctl');
  });

  it('searchDirs stops at home, or at the root outside home', () => {
    expect(searchDirs('/h/p/q', '/h')).toEqual(['/h/p/q', '/h/p', '/h']);
    expect(searchDirs('/srv/app', '/h')).toEqual(['/srv/app', '/srv', '/']);
  });

  it('outside home, searchDirs stops below the first directory that is not ours; inside home it goes on to home', () => {
    const ours = (dir: string) => dir !== '/srv/shared';
    expect(searchDirs('/srv/shared/team/app', '/h', ours)).toEqual(['/srv/shared/team/app', '/srv/shared/team']);
    expect(searchDirs('/h/shared/app', '/h', (dir) => dir !== '/h/shared')).toEqual(['/h/shared/app', '/h/shared', '/h']);
  });
});
