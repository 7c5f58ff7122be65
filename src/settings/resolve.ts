import { flagAndValue } from '../shell-quote.js';
import { configError, usageError } from '../errors.js';
import type { LoadedConfig } from './load.js';
import type { SecretInput } from './read-secret.js';
import { defaultRegion, regionOf, regionUrls, type Region } from './regions.js';
import type { ProfileSettings } from './schema.js';
import { nearest } from '../suggest.js';
import { profileSecretEnv } from './profile-secret-env.js';

type Env = Record<string, string | undefined>;

/** Settings given as command-line flags (the secret arrives separately, already read: see readSecret). */
export interface SettingsFlags {
  appId?: string;
  region?: string;
  baseUrl?: string;
  profile?: string;
  timeout?: string;
  insecure?: boolean;
}

export interface ResolveInput {
  flags: SettingsFlags;
  env: Env;
  file: LoadedConfig | null;
  /** The secret from `--app-secret-file` / `--app-secret-stdin`, if one was given. */
  secret?: SecretInput;
}

export interface Settings {
  appId?: string;
  appSecret?: string;
  region: Region;
  /** Not yet checked: pass it through checkBaseUrl before use. */
  baseUrl: string;
  /** A duration text such as "10s", as `--timeout` takes it. */
  timeout: string;
  insecure: boolean;
  profile?: string;
  configFile?: string;
}

export type SettingName = 'appId' | 'appSecret' | 'region' | 'baseUrl' | 'timeout' | 'profile' | 'configFile';

/** The resolved settings, where each came from (e.g. "env PUSHCTL_APP_ID"), and warnings to print. */
export interface ResolvedSettings {
  settings: Settings;
  sources: Partial<Record<SettingName, string>>;
  warnings: string[];
  /** The profiles of the config file when none was chosen: a missing credential may be in one of them. */
  unchosenProfiles?: string[];
}

export const defaultTimeout = '10s';

type Key = 'appId' | 'appSecret' | 'region' | 'baseUrl' | 'timeout';

/** One layer of the precedence: a value per key and the words naming where it came from. */
interface Layer {
  get(key: Key): string | undefined;
  source(key: Key): string;
}

const flagNames: Record<Key, string> = {
  appId: '--app-id',
  appSecret: '--app-secret-file',
  region: '--region',
  baseUrl: '--base-url',
  timeout: '--timeout',
};

export const envNames = {
  appId: 'PUSHCTL_APP_ID',
  appSecret: 'PUSHCTL_APP_SECRET',
  region: 'PUSHCTL_REGION',
  baseUrl: 'PUSHCTL_BASE_URL',
  profile: 'PUSHCTL_PROFILE',
  config: 'PUSHCTL_CONFIG',
} as const;

/** An empty environment variable counts as unset: CI systems often define variables they leave empty. */
function fromEnv(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function flagValue(flags: SettingsFlags, key: Exclude<Key, 'appSecret'> | 'profile'): string | undefined {
  const value = flags[key];
  if (value === '') {
    const flag = key === 'profile' ? '--profile' : flagNames[key];
    // An empty value is usually an unset shell or CI variable: say both ways forward (docs/behaviour.md#exit-codes).
    const from = key === 'profile' ? 'a profile of the config file (pushctl config lists them)' : 'a value';
    const variable = key === 'timeout' ? undefined : envNames[key];
    throw usageError(`${flag} needs a non-empty value`, `give ${flag} ${from}, or leave the flag out to use ${variable ? `${variable} or ` : ''}the config file`);
  }
  return value;
}

function configLayer(values: ProfileSettings, source: string): Layer {
  return { get: (key) => values[key], source: () => source };
}

/** The profile the flags or the environment choose, checked against the file (a configError when missing). */
export function selectProfile(input: Pick<ResolveInput, 'flags' | 'env' | 'file'>): { name?: string; source?: string; values?: ProfileSettings } {
  const fromFlag = flagValue(input.flags, 'profile');
  const name = fromFlag ?? fromEnv(input.env, envNames.profile);
  if (name === undefined) return {};
  const source = fromFlag !== undefined ? 'flag --profile' : `env ${envNames.profile}`;
  const { file } = input;
  if (file === null) {
    throw configError(
      `profile "${name}" (from ${source}) was selected, but no config file was found`,
      `create it with: pushctl init ${flagAndValue('--profile', name)} --app-id <id>, or point --config at your file`,
    );
  }
  const profiles = file.config.profiles ?? {};
  const values = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (values === undefined) {
    const names = Object.keys(profiles);
    // PUSHCTL_PROFILE=a,b is how several targets are chosen for send and dry-run (docs/behaviour.md#targets):
    // any other command uses one profile, and "profile a,b does not exist" would send the user looking for a typo.
    const parts = name.split(',').map((part) => part.trim());
    if (parts.length > 1 && parts.every((part) => Object.hasOwn(profiles, part))) {
      throw usageError(
        `${source} names several profiles (${parts.join(', ')}); this command uses one`,
        `send and dry-run take a list; here choose one with --profile ${parts[0]!} (a flag wins over ${envNames.profile})`,
      );
    }
    const guess = nearest(name, names);
    throw configError(
      `profile "${name}" (from ${source}) does not exist in ${file.filepath}`,
      names.length === 0
        ? `the file has no profiles; add one with: pushctl init ${flagAndValue('--profile', name)}`
        : `${guess ? `did you mean "${guess}"? ` : ''}profiles in the file: ${names.join(', ')}`,
    );
  }
  return { name, source, values };
}

function checkSecretText(value: string, source: string): void {
  // A line break or control character cannot go into an HTTP header, and the error the HTTP layer would
  // raise might quote the header. Say so here, without the value.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw configError(`the app secret from ${source} contains a line break or control character`, 'store it as a single line');
  }
  // A header carries Latin-1 at most: a curly quote or an emoji pasted into the secret failed at the first
  // request, after "sending to", with the HTTP layer's guess ("empty or ... (a newline?)") and no source.
  if ([...value].some((c) => c.codePointAt(0)! > 0xff)) {
    throw configError(`the app secret from ${source} contains a character an HTTP header cannot carry (beyond Latin-1, such as a curly quote)`, 'copy the secret again from the console of the Push Message Service, as plain text');
  }
}

/**
 * Resolves the settings from flags, environment, the selected profile of the config file, the file's top
 * level and defaults, first wins (docs/behaviour.md#settings). Pure: all I/O (the file, the secret) happens before.
 *
 * The endpoint is one setting given either as a region or as a base URL: the first layer that sets either
 * decides it, and within a layer a base URL beats a region. So `--region india` overrides a baseUrl in the
 * config file, and `baseUrl` beside `region` in the same place wins.
 */
export function resolveSettings(input: ResolveInput): ResolvedSettings {
  const { flags, env, file, secret } = input;
  const profile = selectProfile(input);
  // The chosen profile's own secret variable (PUSHCTL_APP_SECRET_EU), when set, is the more specific: the one
  // `--profile eu,us` reads for eu, so `--profile eu` alone (check, config, a dry run) reads it too.
  const ownSecret = profile.name !== undefined && fromEnv(env, profileSecretEnv(profile.name)) !== undefined ? profileSecretEnv(profile.name) : undefined;
  const envName = (key: Exclude<Key, 'timeout'>) => (key === 'appSecret' ? (ownSecret ?? envNames.appSecret) : envNames[key]);

  const layers: Layer[] = [
    {
      get: (key) => (key === 'appSecret' ? secret?.value : flagValue(flags, key)),
      source: (key) => (key === 'appSecret' ? (secret?.source ?? 'flag') : `flag ${flagNames[key]}`),
    },
    {
      // The timeout has no environment variable (docs/behaviour.md#settings lists none).
      get: (key) => (key === 'timeout' ? undefined : fromEnv(env, envName(key))),
      source: (key) => (key === 'timeout' ? 'env' : `env ${envName(key)}`),
    },
  ];
  if (file && profile.values) layers.push(configLayer(profile.values, `config ${file.filepath} (profile ${profile.name})`));
  if (file) layers.push(configLayer(file.config, `config ${file.filepath}`));

  const sources: ResolvedSettings['sources'] = {};
  const pick = (key: Key): string | undefined => {
    for (const layer of layers) {
      const value = layer.get(key);
      if (value !== undefined) {
        sources[key] = layer.source(key);
        return value;
      }
    }
    return undefined;
  };

  const appId = pick('appId');
  const appSecret = pick('appSecret');
  if (appSecret !== undefined) checkSecretText(appSecret, sources.appSecret ?? 'unknown');

  const regionText = pick('region');
  if (regionText === undefined) sources.region = 'default';
  const region: Region = regionText === undefined ? defaultRegion : regionOf(regionText, sources.region ?? 'unknown');

  let baseUrl: string = regionUrls[region];
  sources.baseUrl = `${REGION_SOURCE}${region} (${sources.region})`;
  for (const layer of layers) {
    const url = layer.get('baseUrl');
    if (url !== undefined) {
      baseUrl = url;
      sources.baseUrl = layer.source('baseUrl');
      break;
    }
    if (layer.get('region') !== undefined) break;
  }

  let timeout = pick('timeout');
  if (timeout === undefined) {
    timeout = defaultTimeout;
    sources.timeout = 'default';
  }

  const settings: Settings = { appId, appSecret, region, baseUrl, timeout, insecure: flags.insecure === true };
  if (profile.name !== undefined) {
    settings.profile = profile.name;
    sources.profile = profile.source;
  }
  if (file) {
    settings.configFile = file.filepath;
    sources.configFile = file.origin === 'flag' ? 'flag --config' : file.origin === 'env' ? `env ${envNames.config}` : 'search';
  }
  // Unset optional settings are absent rather than undefined, so the object prints and compares cleanly.
  if (appId === undefined) delete settings.appId;
  if (appSecret === undefined) delete settings.appSecret;
  const unchosen = profile.name === undefined ? Object.keys(file?.config.profiles ?? {}) : [];
  return { settings, sources, warnings: [...(file?.warnings ?? [])], ...(unchosen.length > 0 ? { unchosenProfiles: unchosen } : {}) };
}

/** Resolved settings with both credentials present. */
export interface Credentials {
  appId: string;
  appSecret: string;
}

/**
 * Returns the app ID and secret, or throws a configError (exit 6) that names the flag, the environment
 * variable and the config key that would supply what is missing. `reads.secretFromStdin` false: the caller
 * cannot read a secret on stdin (the MCP server's stdin is the protocol), so the hint leaves that way out.
 */
export function requireCredentials(resolved: ResolvedSettings, target?: { secretEnv: string }, reads: { secretFromStdin: boolean } = { secretFromStdin: true }): Credentials & Settings {
  const { settings } = resolved;
  const where = settings.profile && settings.configFile
    ? `"profiles.${settings.profile}" of ${settings.configFile}`
    : settings.configFile ?? 'a config file, which pushctl init writes';
  const missing: string[] = [];
  const ways: string[] = [];
  // One target of several (docs/behaviour.md#targets): a flag or PUSHCTL_APP_* would be every target's, and
  // one secret for all is refused, so only the profile's own key or secret variable is offered.
  if (settings.appId === undefined) {
    missing.push('app ID');
    ways.push(target ? `the app ID: put "appId" in ${where}` : `the app ID: pass --app-id, set ${envNames.appId}, or put "appId" in ${where}`);
  }
  if (settings.appSecret === undefined) {
    missing.push('app secret');
    ways.push(
      target
        ? `the app secret: put "appSecret" in ${where} (mode 600), or set ${target.secretEnv}`
        : `the app secret: set ${secretVariables(settings.profile)}, pass --app-secret-file <path>${reads.secretFromStdin ? ' or --app-secret-stdin' : ''}, ` + `or put "appSecret" in ${where} (mode 600)`,
    );
  }
  if (missing.length === 0) return settings as Credentials & Settings;
  const profiles = resolved.unchosenProfiles ?? [];
  if (profiles.length > 0) {
    // The credentials are likely in a profile the user forgot to choose: naming them is the fix.
    const first = profiles[0]!;
    throw configError(
      `no ${missing.join(' and no ')} configured: ${settings.configFile ?? 'the config file'} has profiles ${profiles.join(', ')}, but none was chosen`,
      `pick one with --profile ${first} or PUSHCTL_PROFILE=${first}; or supply ${ways.join('; supply ')}`,
    );
  }
  throw configError(`no ${missing.join(' and no ')} configured`, `supply ${ways.join('; supply ')}`);
}

/** The variables the secret is read from: a chosen profile's own first (resolveSettings reads it first). */
const secretVariables = (profile: string | undefined): string => (profile === undefined ? envNames.appSecret : `${profileSecretEnv(profile)} or ${envNames.appSecret}`);

/** How the base URL's source reads when the region chose it (`region global (default)`). */
const REGION_SOURCE = 'region ';

/** Whether the base URL came from the region: otherwise a base URL set by a flag, env or file wins, and the region is not used. */
export const baseUrlFromRegion = (baseUrlSource: string | undefined): boolean => baseUrlSource?.startsWith(REGION_SOURCE) === true;
