import { PassThrough } from 'node:stream';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { loadSettings } from '../../../src/settings/load-settings.js';
import { readSecret, stripTrailingNewlines } from '../../../src/settings/read-secret.js';
import { useSandbox } from './helpers.js';
import { rejectionOf } from '../../helpers/cli-error.js';

const box = useSandbox();

const stdinOf = (text: string) => {
  const stream = new PassThrough();
  stream.end(text);
  return stream;
};


describe('stripTrailingNewlines', () => {
  it.each([
    ['s3cret\n', 's3cret'],
    ['s3cret\r\n', 's3cret'],
    ['s3cret\n\n', 's3cret'],
    ['s3cret', 's3cret'],
    [' s3cret ', ' s3cret '],
  ])('%j → %j', (input, expected) => {
    expect(stripTrailingNewlines(input)).toBe(expected);
  });
});

describe('readSecret', () => {
  it('returns undefined without a flag', async () => {
    expect(await readSecret({}, { cwd: box.project, stdin: stdinOf('') })).toBeUndefined();
  });

  it('reads --app-secret-file relative to cwd, trailing newline stripped', async () => {
    const file = await box.write('home/project/secret.txt', 'file-secret\n', 0o600);
    expect(await readSecret({ appSecretFile: 'secret.txt' }, { cwd: box.project, stdin: stdinOf('') })).toEqual({
      value: 'file-secret',
      source: `flag --app-secret-file ${file}`,
    });
  });

  it('reads --app-secret-stdin, trailing CRLF stripped', async () => {
    expect(await readSecret({ appSecretStdin: true }, { cwd: box.project, stdin: stdinOf('stdin-secret\r\n') })).toEqual({
      value: 'stdin-secret',
      source: 'flag --app-secret-stdin',
    });
  });

  it('both flags together are a usage error', async () => {
    const error = await rejectionOf(readSecret({ appSecretFile: 'x', appSecretStdin: true }, { cwd: box.project, stdin: stdinOf('') }));
    expect(error.exitCode).toBe(ExitCode.usage);
  });

  it('a missing file is a config error naming it', async () => {
    const error = await rejectionOf(readSecret({ appSecretFile: 'missing' }, { cwd: box.project, stdin: stdinOf('') }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain(path.join(box.project, 'missing'));
  });

  it('an empty secret is a config error', async () => {
    await box.write('home/project/empty', '\n');
    expect((await rejectionOf(readSecret({ appSecretFile: 'empty' }, { cwd: box.project, stdin: stdinOf('') }))).exitCode).toBe(ExitCode.config);
    expect((await rejectionOf(readSecret({ appSecretStdin: true }, { cwd: box.project, stdin: stdinOf('') }))).exitCode).toBe(ExitCode.config);
  });
});

describe('loadSettings (file + secret + resolve)', () => {
  it('a secret flag beats PUSHCTL_APP_SECRET and the config file', async () => {
    await box.write('home/project/.pushctlrc.json', '{"appId": "a", "appSecret": "config-secret"}', 0o600);
    await box.write('home/project/s.txt', 'file-secret\n');
    const env = { ...box.env, PUSHCTL_APP_SECRET: 'env-secret' };
    const ctx = { cwd: box.project, env, stdin: stdinOf('stdin-secret\n') };
    expect((await loadSettings({ appSecretFile: 's.txt' }, ctx)).settings.appSecret).toBe('file-secret');
    expect((await loadSettings({ appSecretStdin: true }, ctx)).settings.appSecret).toBe('stdin-secret');
    expect((await loadSettings({}, ctx)).settings.appSecret).toBe('env-secret');
    expect((await loadSettings({}, { ...ctx, env: box.env })).settings.appSecret).toBe('config-secret');
  });

  it('uses --config and reports where the file came from', async () => {
    const file = await box.write('home/elsewhere.yaml', 'appId: elsewhere\n');
    const loaded = await loadSettings({ config: file }, { cwd: box.project, env: box.env, stdin: stdinOf('') });
    expect(loaded.settings).toMatchObject({ appId: 'elsewhere', configFile: file });
    expect(loaded.sources).toMatchObject({ appId: `config ${file}`, configFile: 'flag --config' });
  });
});
