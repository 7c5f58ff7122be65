// Named audiences (docs/behaviour.md#audiences): `--to <name>` turned into the recipient options the flags
// would give, so validation, batching, the journal and `--once` fingerprinting see nothing new. Pure: the
// config file is read before.
import type { RecipientFlags } from '../message/assemble.js';
import path from 'node:path';
import { usageError } from '../errors.js';
import { nearest } from '../suggest.js';
import { givenValue } from '../given-value.js';
import { flagAndValue, shellQuote } from '../shell-quote.js';
import type { Audience, ConfigFile } from './schema.js';

/** The recipient options of send, dry-run and validate that `--to` stands for. */
export interface RecipientOptions extends RecipientFlags {
  clientIdsFile?: string;
  /** Where `clientIdsFile` was named when no --client-ids-file was typed (an audience), for its errors. */
  clientIdsFileOf?: string;
}

/** Each recipient option with the flag a user typed for it, for the error when `--to` meets one. */
const RECIPIENT_FLAGS: [keyof RecipientOptions, string][] = [
  ['all', '--all'],
  ['clientId', '--client-id'],
  ['clientIdsFile', '--client-ids-file'],
  ['country', '--country'],
  ['language', '--language'],
  ['brand', '--brand'],
  ['model', '--model'],
  ['osVersion', '--os-version'],
  ['appVersion', '--app-version'],
];

const TARGETING_OPTIONS = { country: 'country', language: 'language', brand: 'brand', model: 'model', os_version: 'osVersion', app_version: 'appVersion' } as const;

/** The audiences a command sees: the top level's, with the chosen profile's added over them by name. */
export function audiencesOf(config: ConfigFile | undefined, profile: string | undefined): Record<string, Audience> {
  const chosen = profile !== undefined && config?.profiles && Object.hasOwn(config.profiles, profile) ? config.profiles[profile]?.audiences : undefined;
  return { ...(config?.audiences ?? {}), ...(chosen ?? {}) };
}

/**
 * With several targets `--to` names a top-level audience, the same recipients for every target: a name only
 * a target's profile holds is refused as such (a usage error), rather than as no audience at all.
 */
export function checkSharedAudience(name: string, config: ConfigFile | undefined, profiles: readonly string[]): void {
  if (Object.hasOwn(config?.audiences ?? {}, name)) return;
  const owner = profiles.find((profile) => Object.hasOwn(config?.profiles?.[profile]?.audiences ?? {}, name));
  if (owner === undefined) return;
  throw usageError(
    `--to ${givenValue(name)} is an audience of profile ${owner}; with several profiles --to takes an audience of the top level, the same recipients for every target`,
    `move "${name}" to the top level's "audiences" to send it to every profile, or send to --profile ${owner} alone`,
  );
}

/** `--to ''` names no audience: said first, before whatever else it is checked against. */
function checkAudienceName(name: string): void {
  if (name.trim() === '') throw usageError('--to needs an audience name', 'e.g. --to my-phones (pushctl config lists the audiences)');
}

/** A usage error when `--to` comes with a flag that also chooses recipients: which would win is a guess. */
export function checkToAlone(options: RecipientOptions & { to?: string }): void {
  if (options.to === undefined) return;
  // Else an empty name read '--to  and --all both choose recipients', 'keep --to ,'.
  checkAudienceName(options.to);
  const others = RECIPIENT_FLAGS.filter(([key]) => options[key] !== undefined && options[key] !== false).map(([, flag]) => flag);
  if (others.length === 0) return;
  throw usageError(`--to ${givenValue(options.to)} and ${others.join(', ')} both choose recipients`, `keep --to ${givenValue(options.to)}, or drop it and choose the recipients with ${others[0]}`);
}

/**
 * The recipient options audience `name` stands for. A client-ID file is named relative to the config file's
 * directory, so the same config works from any directory. An unknown name lists the known ones.
 */
export function audienceOptions(name: string, audiences: Record<string, Audience>, configFile: string | undefined): RecipientOptions {
  checkAudienceName(name);
  const audience = Object.hasOwn(audiences, name) ? audiences[name] : undefined;
  if (audience === undefined) {
    const names = Object.keys(audiences);
    const guess = nearest(name, names);
    if (names.length === 0) {
      throw usageError(
        `--to ${givenValue(name)}: no audiences are configured${configFile ? ` in ${configFile}` : ' (no config file was found)'}`,
        // A command to paste: the name as the shell must be given it, the IDs left to fill in.
        `add one with: pushctl init ${flagAndValue('--audience', name, `${shellQuote(name)}=<client-id>,<client-id>`)}, or write "audiences" in the config file`,
      );
    }
    throw usageError(`--to ${givenValue(name)}: no such audience`, `${guess ? `did you mean "${guess}"? ` : ''}audiences: ${names.join(', ')}`);
  }
  // Recipients by condition are changed in the config file: a refusal about them names this audience there.
  const named = configFile !== undefined ? { audience: { name, file: configFile } } : {};
  if (audience === 'all') return { all: true, ...named };
  if ('client_ids' in audience) return { clientId: [...audience.client_ids] };
  if ('client_ids_file' in audience) {
    // An audience comes from a config file, so there is one to be relative to.
    return { clientIdsFile: path.resolve(path.dirname(configFile!), audience.client_ids_file), clientIdsFileOf: `"client_ids_file" of audience "${name}" in ${configFile!}` };
  }
  const options: RecipientOptions = {};
  const fields: string[] = [];
  for (const [field, option] of Object.entries(TARGETING_OPTIONS) as [keyof typeof TARGETING_OPTIONS, (typeof TARGETING_OPTIONS)[keyof typeof TARGETING_OPTIONS]][]) {
    const values = audience.targeting[field];
    if (values === undefined) continue;
    options[option] = [...values];
    fields.push(`condition.targeting.${field}`);
  }
  if (Object.keys(options).length === 0) {
    throw usageError(`--to ${givenValue(name)}: its targeting block is empty, which would reach no one in particular`, `give it a condition such as {"targeting": {"country": ["IN"]}}, or write "all" for every device`);
  }
  return { ...options, ...(named.audience ? { audience: { ...named.audience, fields } } : {}) };
}
