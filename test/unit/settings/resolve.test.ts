import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import type { LoadedConfig } from '../../../src/settings/load.js';
import { requireCredentials, resolveSettings, type ResolveInput } from '../../../src/settings/resolve.js';
import { regionUrls } from '../../../src/settings/regions.js';
import type { ConfigFile } from '../../../src/settings/schema.js';
import { thrownBy } from '../../helpers/cli-error.js';

const filepath = '/home/u/project/.pushctlrc.json';
const file = (config: ConfigFile, warnings: string[] = []): LoadedConfig => ({ filepath, config, origin: 'search', warnings });

function resolve(input: Partial<ResolveInput>) {
  return resolveSettings({ flags: {}, env: {}, file: null, ...input });
}

const thrown = thrownBy;

describe('precedence: flags > env > profile > config top level > defaults', () => {
  const config = file({
    appId: 'top-id',
    appSecret: 'top-secret',
    region: 'global',
    timeout: '20s',
    profiles: { ci: { appId: 'profile-id', appSecret: 'profile-secret', region: 'india', timeout: '30s' } },
  });
  const allEnv = { PUSHCTL_APP_ID: 'env-id', PUSHCTL_APP_SECRET: 'env-secret', PUSHCTL_REGION: 'global' };
  const flagSecret = { value: 'flag-secret', source: 'flag --app-secret-file /tmp/s' };

  it.each([
    { layer: 'flag beats env', input: { flags: { appId: 'flag-id', profile: 'ci' }, env: allEnv, file: config }, appId: ['flag-id', 'flag --app-id'] },
    { layer: 'env beats profile', input: { flags: { profile: 'ci' }, env: allEnv, file: config }, appId: ['env-id', 'env PUSHCTL_APP_ID'] },
    { layer: 'profile beats top level', input: { flags: { profile: 'ci' }, file: config }, appId: ['profile-id', `config ${filepath} (profile ci)`] },
    { layer: 'top level beats defaults', input: { file: config }, appId: ['top-id', `config ${filepath}`] },
    { layer: 'nothing set', input: {}, appId: [undefined, undefined] },
  ])('app ID: $layer', ({ input, appId }) => {
    const { settings, sources } = resolve(input);
    expect([settings.appId, sources.appId]).toEqual(appId);
  });

  it.each([
    { layer: 'flag beats env', input: { secret: flagSecret, env: allEnv, file: config, flags: { profile: 'ci' } }, expected: ['flag-secret', 'flag --app-secret-file /tmp/s'] },
    { layer: 'env beats profile', input: { env: allEnv, file: config, flags: { profile: 'ci' } }, expected: ['env-secret', 'env PUSHCTL_APP_SECRET'] },
    { layer: 'profile beats top level', input: { file: config, flags: { profile: 'ci' } }, expected: ['profile-secret', `config ${filepath} (profile ci)`] },
    { layer: 'top level', input: { file: config }, expected: ['top-secret', `config ${filepath}`] },
  ])('app secret: $layer', ({ input, expected }) => {
    const { settings, sources } = resolve(input);
    expect([settings.appSecret, sources.appSecret]).toEqual(expected);
  });

  it.each([
    { layer: 'flag', input: { flags: { region: 'india' }, env: { PUSHCTL_REGION: 'global' } }, expected: ['india', 'flag --region'] },
    { layer: 'env', input: { env: { PUSHCTL_REGION: 'india' }, file: file({ region: 'global' }) }, expected: ['india', 'env PUSHCTL_REGION'] },
    { layer: 'profile', input: { file: config, flags: { profile: 'ci' } }, expected: ['india', `config ${filepath} (profile ci)`] },
    { layer: 'top level', input: { file: file({ region: 'india' }) }, expected: ['india', `config ${filepath}`] },
    { layer: 'default', input: {}, expected: ['global', 'default'] },
  ])('region: $layer', ({ input, expected }) => {
    const { settings, sources } = resolve(input);
    expect([settings.region, sources.region]).toEqual(expected);
  });

  it.each([
    { layer: 'flag', input: { flags: { timeout: '5s', profile: 'ci' }, file: config }, expected: ['5s', 'flag --timeout'] },
    { layer: 'profile', input: { flags: { profile: 'ci' }, file: config }, expected: ['30s', `config ${filepath} (profile ci)`] },
    { layer: 'top level', input: { file: config }, expected: ['20s', `config ${filepath}`] },
    { layer: 'default', input: {}, expected: ['10s', 'default'] },
  ])('timeout: $layer', ({ input, expected }) => {
    const { settings, sources } = resolve(input);
    expect([settings.timeout, sources.timeout]).toEqual(expected);
  });

  it('treats an empty environment variable as unset', () => {
    const { settings } = resolve({ env: { PUSHCTL_APP_ID: '', PUSHCTL_APP_SECRET: '' }, file: config });
    expect(settings.appId).toBe('top-id');
    expect(settings.appSecret).toBe('top-secret');
  });

  it('refuses an empty flag value', () => {
    expect(thrown(() => resolve({ flags: { appId: '' } })).exitCode).toBe(ExitCode.usage);
  });

  it('passes the config file warnings through', () => {
    expect(resolve({ file: file({}, ['mode 644']) }).warnings).toEqual(['mode 644']);
  });
});

describe('regions and base URL', () => {
  it.each([
    ['global', regionUrls.global],
    ['india', 'https://ind-pushapi.twibida.com'],
    ['INDIA', 'https://ind-pushapi.twibida.com'],
  ])('region %s maps to %s', (region, url) => {
    const { settings, sources } = resolve({ flags: { region } });
    expect(settings.baseUrl).toBe(url);
    expect(sources.baseUrl).toBe(`region ${region.toLowerCase()} (flag --region)`);
  });

  it('defaults to the global endpoint', () => {
    const { settings, sources } = resolve({});
    expect(settings.baseUrl).toBe('https://pushapi.twibida.com');
    expect(sources.baseUrl).toBe('region global (default)');
  });

  it('a base URL overrides the region of the same layer', () => {
    const { settings, sources } = resolve({ flags: { region: 'india', baseUrl: 'http://127.0.0.1:8787' } });
    expect(settings.baseUrl).toBe('http://127.0.0.1:8787');
    expect(sources.baseUrl).toBe('flag --base-url');
    expect(settings.region).toBe('india');
  });

  it('a region in a higher layer beats a base URL in a lower one', () => {
    const { settings } = resolve({ env: { PUSHCTL_REGION: 'india' }, file: file({ baseUrl: 'http://127.0.0.1:8787' }) });
    expect(settings.baseUrl).toBe(regionUrls.india);
  });

  it('a base URL in a higher layer beats a region in a lower one', () => {
    const { settings, sources } = resolve({ env: { PUSHCTL_BASE_URL: 'http://localhost:1' }, flags: {}, file: file({ region: 'india' }) });
    expect(settings.baseUrl).toBe('http://localhost:1');
    expect(sources.baseUrl).toBe('env PUSHCTL_BASE_URL');
  });

  it('an unknown region is a config error listing the valid ones', () => {
    const error = thrown(() => resolve({ env: { PUSHCTL_REGION: 'indai' } }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain('unknown region "indai" (from env PUSHCTL_REGION)');
    expect(error.hint).toContain('did you mean "india"?');
    expect(error.hint).toContain('global, india');
  });
});

describe('profile selection', () => {
  const config = file({ appId: 'top', profiles: { ci: { appId: 'ci-id' }, staging: { appId: 'staging-id' } } });

  it('by flag, beating the environment', () => {
    const { settings, sources } = resolve({ flags: { profile: 'staging' }, env: { PUSHCTL_PROFILE: 'ci' }, file: config });
    expect(settings.appId).toBe('staging-id');
    expect(settings.profile).toBe('staging');
    expect(sources.profile).toBe('flag --profile');
  });

  it('by environment', () => {
    const { settings, sources } = resolve({ env: { PUSHCTL_PROFILE: 'ci' }, file: config });
    expect(settings.appId).toBe('ci-id');
    expect(sources.profile).toBe('env PUSHCTL_PROFILE');
    expect(sources.appId).toBe(`config ${filepath} (profile ci)`);
  });

  it('a profile falls back to the top level for keys it lacks', () => {
    const { settings, sources } = resolve({ flags: { profile: 'ci' }, file: file({ region: 'india', profiles: { ci: { appId: 'x' } } }) });
    expect(settings.region).toBe('india');
    expect(sources.region).toBe(`config ${filepath}`);
  });

  it('an unknown profile is a config error listing the existing ones', () => {
    const error = thrown(() => resolve({ flags: { profile: 'stagin' }, file: config }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain('profile "stagin" (from flag --profile) does not exist in');
    expect(error.hint).toContain('did you mean "staging"?');
    expect(error.hint).toContain('ci, staging');
  });

  it('a profile without a config file is a config error', () => {
    const error = thrown(() => resolve({ env: { PUSHCTL_PROFILE: 'ci' } }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain('no config file was found');
  });

  it('does not treat inherited object keys as profiles', () => {
    expect(thrown(() => resolve({ flags: { profile: 'constructor' }, file: config })).exitCode).toBe(ExitCode.config);
  });
});

describe('secret checks', () => {
  it('refuses a secret with a line break, without quoting it', () => {
    const error = thrown(() => resolve({ env: { PUSHCTL_APP_SECRET: 'canary-Zq81\nmore' } }));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain('env PUSHCTL_APP_SECRET');
    expect(`${error.message} ${error.hint}`).not.toContain('canary-Zq81');
  });
});

describe('requireCredentials', () => {
  it('returns the settings when both are present', () => {
    const resolved = resolve({ env: { PUSHCTL_APP_ID: 'a', PUSHCTL_APP_SECRET: 's' } });
    expect(requireCredentials(resolved)).toMatchObject({ appId: 'a', appSecret: 's' });
  });

  it('names the flag, variable and key for a missing app ID', () => {
    const error = thrown(() => requireCredentials(resolve({ env: { PUSHCTL_APP_SECRET: 's' } })));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toBe('no app ID configured');
    expect(error.hint).toContain('--app-id');
    expect(error.hint).toContain('PUSHCTL_APP_ID');
    expect(error.hint).toContain('"appId"');
  });

  it('names the flags, variable and key for a missing secret', () => {
    const error = thrown(() => requireCredentials(resolve({ flags: { appId: 'a' } })));
    expect(error.message).toBe('no app secret configured');
    for (const word of ['PUSHCTL_APP_SECRET', '--app-secret-file', '--app-secret-stdin', '"appSecret"']) expect(error.hint).toContain(word);
  });

  it("offers the chosen profile's own secret variable, which is read before PUSHCTL_APP_SECRET", () => {
    const error = thrown(() => requireCredentials(resolve({ flags: { profile: 'india' }, file: file({ profiles: { india: { appId: 'a' } } }) })));
    expect(error.message).toBe('no app secret configured');
    expect(error.hint).toContain('set PUSHCTL_APP_SECRET_INDIA or PUSHCTL_APP_SECRET,');
  });

  it('names both when both are missing, and the profile when one is selected', () => {
    const error = thrown(() => requireCredentials(resolve({ flags: { profile: 'ci' }, file: file({ profiles: { ci: {} } }) })));
    expect(error.message).toBe('no app ID and no app secret configured');
    expect(error.hint).toContain(`"profiles.ci" of ${filepath}`);
  });
});
