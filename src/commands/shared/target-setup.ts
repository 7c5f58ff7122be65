// The steps before a run of several targets sends anything (docs/behaviour.md#targets): the options that
// cannot apply to several apps are refused, then every target's settings are loaded and checked, so a
// missing secret in the last target means nothing is sent to the first.
import { extendCtx, type Ctx } from '../../context.js';
import { CliError, usageError } from '../../errors.js';
import { RateLimiter } from '../../client/rate-limiter.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import { escapeControl } from '../../output/escape-control.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { SettingsOptions } from '../../settings/load-settings.js';
import type { ConnectMode, Connection } from './connect.js';
import type { DeliveryOptions } from './delivery-options.js';
import { profileSecretEnv, targetEnv } from './target-list.js';
import { targetError } from './target-error.js';

/** One target: its profile, and the client that sends to its app at its destination. */
export interface Target {
  profile: string;
  connection: Connection;
  /** The base URL as journals keep it: targets with the same one share a rate limiter. */
  baseUrl: string;
}

/** connect (connect.ts) with the run's config file bound: every target's settings come from one reading of it. */
/** Where one target sends, named by its profile as its other lines are: two profiles may send to one host. */
export const announcement = (target: Target): string => `profile ${escapeControl(target.profile)}: ${target.connection.announcement}`;

type Connect = (options: SettingsOptions, ctx: Ctx, scrubber: SecretScrubber, mode: ConnectMode) => Promise<Connection>;

/**
 * Refuses what one run of several targets cannot do: a secret given once (a file, stdin, PUSHCTL_APP_SECRET)
 * would go to every target's destination; a report or a journal file is one file for several runs.
 */
export function checkTargetOptions(options: SettingsOptions & DeliveryOptions, profiles: readonly string[], env: Record<string, string | undefined>): void {
  const perProfile = `give each profile its own: "appSecret" in profiles.<name> of the config file, or ${profiles.map(profileSecretEnv).join(' and ')}`;
  if (options.appSecretFile !== undefined || options.appSecretStdin === true) {
    throw usageError(`${options.appSecretStdin ? '--app-secret-stdin' : '--app-secret-file'} is one secret for ${profiles.length} profiles: it would go to every target's destination`, perProfile);
  }
  if (env.PUSHCTL_APP_SECRET !== undefined && env.PUSHCTL_APP_SECRET !== '') {
    throw usageError(`PUSHCTL_APP_SECRET is one secret for ${profiles.length} profiles: it would go to every target's destination`, `unset it and ${perProfile}`);
  }
  if (options.report !== undefined) {
    throw usageError(`--report writes one run's report; --profile ${profiles.join(',')} makes ${profiles.length} runs`, 'drop --report, and write each target\'s later with pushctl runs show <run> --report <path>');
  }
  if (typeof options.journal === 'string') {
    throw usageError(`--journal names one file; --profile ${profiles.join(',')} makes ${profiles.length} runs, each with its journal`, 'drop --journal (PUSHCTL_JOURNAL_DIR chooses where journals go)');
  }
}

/**
 * Loads and checks every target's settings and opens its client (nothing is sent), in the order given. A
 * target that fails names its profile; the clients opened before it are closed. Each target's destination is
 * announced only once every target is checked: a refused run names none as a place it sends to. With
 * `--once` the caller announces them once the keys are owned (`announce` false): a target found done sends nothing.
 */
export async function resolveTargets(profiles: readonly string[], options: SettingsOptions, ctx: Ctx, scrubber: SecretScrubber, mode: { dryRun: boolean; human: boolean; announce: boolean }, connect: Connect): Promise<Target[]> {
  const targets: Target[] = [];
  try {
    for (const profile of profiles) {
      // PUSHCTL_APP_SECRET is refused with several profiles: a missing secret's hint names the profile's own variable.
      const connection = await connect({ ...options, profile }, extendCtx(ctx, { env: targetEnv(ctx.env, profile) }), scrubber, { ...mode, announce: false, targetSecretEnv: profileSecretEnv(profile) }).catch((error: unknown) => {
        if (!(error instanceof CliError)) throw error;
        throw targetError(profile, error);
      });
      targets.push({ profile, connection, baseUrl: journalBaseUrl(connection.baseUrl) });
    }
    checkDistinct(targets);
    if (mode.human && mode.announce) for (const target of targets) ctx.stderr.write(announcement(target));
    return targets;
  } catch (error) {
    for (const target of targets) target.connection.client.close();
    throw error;
  }
}

/**
 * Two profiles that come to the same app at the same destination would send everyone the message twice. The
 * hint says why: a setting given once (a flag, a variable, the file's top level, the default region) reaches
 * every profile alike; settings the two profiles give themselves are the config file's to correct.
 */
export function checkDistinct(targets: readonly Pick<Target, 'profile' | 'connection' | 'baseUrl'>[]): void {
  for (let i = 0; i < targets.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [targets[j]!, targets[i]!];
      if (a.connection.appId === b.connection.appId && a.baseUrl === b.baseUrl) {
        throw usageError(
          `profiles ${escapeControl(a.profile)} and ${escapeControl(b.profile)} both send as app ${escapeControl(a.connection.appId)} to ${escapeControl(a.baseUrl)}: every recipient would get the message twice`,
          sameTargetHint(a, b),
        );
      }
    }
  }
}

const SETTINGS = [
  { key: 'appId', words: 'the app ID', keys: '"appId"' },
  { key: 'baseUrl', words: 'the base URL', keys: '"baseUrl" (or "region")' },
] as const;

function sameTargetHint(a: Pick<Target, 'profile' | 'connection'>, b: Pick<Target, 'profile' | 'connection'>): string {
  const shared = SETTINGS.filter(({ key }) => a.connection.sources[key] === b.connection.sources[key]);
  if (shared.length === 0) {
    return `the config file gives profiles ${escapeControl(a.profile)} and ${escapeControl(b.profile)} the same "appId" and "baseUrl": correct the one that is wrong, or send to one of them`;
  }
  const given = shared.map(({ key, words }) => `${words} (${escapeControl(a.connection.sources[key])})`).join(' and ');
  return `${given} ${shared.length === 1 ? 'applies' : 'apply'} to every profile: set ${shared.map(({ keys }) => keys).join(' and ')} in each profile of the config file instead`;
}

/**
 * One rate limiter per destination (docs/behaviour.md#targets): targets at different base URLs send side by
 * side, each at the full rate; targets that share a base URL share its limit, as the service counts it.
 */
export function limitersFor(targets: readonly Target[], rate: number): Map<string, RateLimiter> {
  const limiters = new Map<string, RateLimiter>();
  for (const target of targets) if (!limiters.has(target.baseUrl)) limiters.set(target.baseUrl, new RateLimiter({ rate }));
  return limiters;
}
