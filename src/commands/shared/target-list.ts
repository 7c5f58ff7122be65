// Which profiles a send goes to (docs/behaviour.md#targets): `--profile a,b` (or the flag repeated, which the
// CLI joins with commas), else `PUSHCTL_PROFILE=a,b`. Pure: the environment comes in as an argument.
import { usageError } from '../../errors.js';
import { profileSecretEnv } from '../../settings/profile-secret-env.js';

type Env = Record<string, string | undefined>;

/**
 * The profiles of a run of several targets, in the order given; undefined for none or one, which the
 * single-target path handles exactly as before.
 */
export function targetProfiles(flag: string | undefined, env: Env): string[] | undefined {
  const fromEnv = env.PUSHCTL_PROFILE;
  const given = flag ?? (fromEnv === undefined || fromEnv.trim() === '' ? undefined : fromEnv);
  if (given === undefined || !given.includes(',')) return undefined;
  const source = flag !== undefined ? '--profile' : 'PUSHCTL_PROFILE';
  const names = given.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) {
    throw usageError(`${source} ${JSON.stringify(given)} has an empty profile name`, 'list profile names separated by commas, e.g. --profile global,india');
  }
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw usageError(`${source} names profile "${twice}" twice`, 'name each profile once: one target each');
  return names.length > 1 ? names : undefined;
}

/**
 * `--profile` given more than once: the values joined as one comma list (commander's collector for the
 * option on send and dry-run).
 */
export const joinProfiles = (value: string, previous: string | undefined): string => (previous === undefined ? value : `${previous},${value}`);

export { profileSecretEnv };

/**
 * The environment one target's settings are read with: its own secret variable, when set, stands as
 * PUSHCTL_APP_SECRET. A PUSHCTL_APP_SECRET set for the whole run would be one secret sent to several apps'
 * destinations, so it is refused (the caller checks before any settings are read).
 */
export function targetEnv(env: Env, profile: string): Env {
  const own = env[profileSecretEnv(profile)];
  const { PUSHCTL_PROFILE: _chosen, ...rest } = env;
  return own !== undefined && own !== '' ? { ...rest, PUSHCTL_APP_SECRET: own } : rest;
}
