import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { makeDirs } from '../../make-dirs.js';
import path from 'node:path';
import type { Ctx } from '../../context.js';
import { printInitOutcome, type InitOutcome } from '../../output/init.js';
import { runnable } from '../shared/runnable.js';
import { initOptionsSchema, type InitOptions } from './options.js';
import { CliError, configError, ExitCode, usageError } from '../../errors.js';
import { checkBaseUrl } from '../../settings/check-base-url.js';
import { loadConfigFile, searchPlaces } from '../../settings/load.js';
import { userConfigDir } from '../../settings/paths.js';
import { createPrompter, type Prompter } from '../../settings/prompt.js';
import { readSecret } from '../../settings/read-secret.js';
import { regionNames, regionOf } from '../../settings/regions.js';
import type { Audience, ProfileSettings } from '../../settings/schema.js';
import { parseAudienceFlags } from '../shared/audience-flag.js';
import { profileSecretEnv } from '../../settings/profile-secret-env.js';
import { MIN_SECRET_LENGTH, type SecretSink } from '../../output/redact.js';

export type { InitOutcome };

const scriptExtensions = new Set(['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts']);

function targetPath(options: InitOptions, ctx: Pick<Ctx, 'cwd' | 'env'>): string {
  if (options.config && options.global) throw usageError('--config and --global cannot be used together', 'drop one: --global writes the user config file, --config the file it names');
  if (options.global) return path.join(userConfigDir(ctx.env), 'config.json');
  const file = path.resolve(ctx.cwd, options.config ?? '.pushctlrc.json');
  if (scriptExtensions.has(path.extname(file)) || path.basename(file) === 'package.json') {
    throw usageError(`init writes JSON and cannot write ${path.basename(file)}`, 'choose a path such as .pushctlrc.json');
  }
  return file;
}

async function askSettings(prompter: Prompter, tell: (line: string) => void, given: ProfileSettings, secretGiven: boolean): Promise<ProfileSettings> {
  const answers: ProfileSettings = { ...given };
  answers.appId = undefined;
  for (let tries = 0; !answers.appId && tries < 3; tries++) {
    answers.appId = (await prompter.ask('App ID', given.appId)) || undefined;
    if (!answers.appId) tell('an App ID is needed: it is the {AppID} of the push URL, shown in the vendor console (the local emulator\'s is demo-app)');
  }
  if (!answers.appId) throw usageError('an app ID is needed', 'pass --app-id <id>');
  if (given.baseUrl === undefined) {
    tell(`Where to send: a region (${regionNames.join(' or ')}), or a base URL such as the local emulator's http://127.0.0.1:8787 (start it with pushctl serve)`);
    for (let tries = 1; ; tries++) {
      const answer = await prompter.ask('Region or base URL', given.region ?? 'global');
      try {
        if (/^https?:\/\//i.test(answer)) {
          answers.baseUrl = checkBaseUrl(answer, { source: 'your answer' });
          answers.region = undefined;
        } else answers.region = regionOf(answer, 'your answer');
        break;
      } catch (error) {
        if (!(error instanceof CliError) || tries >= 3) throw error;
        tell(`${error.message}; ${error.hint}`);
      }
    }
  }
  if (!secretGiven) {
    const store = await prompter.ask('Store the app secret in the file? PUSHCTL_APP_SECRET is the safer place (y/N)');
    if (/^y(es)?$/i.test(store)) {
      const secret = (await prompter.askHidden('App secret')).replace(/[\r\n]+$/, '');
      if (secret !== '') answers.appSecret = secret;
    }
  }
  return answers;
}

async function readExisting(file: string, force: boolean): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw configError(`cannot read ${file} (${code ?? (error as Error).message})`, code === 'EISDIR' ? 'give --config the path of a file, not a directory' : 'check that you can read it, or give --config another path');
  }
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON (perhaps YAML): it cannot be merged, only replaced.
  }
  if (force) return {};
  throw configError(`${file} exists and is not a JSON object, so init cannot add to it`, 'pass --force to replace the whole file, or edit it by hand');
}

/**
 * A stored secret of one or two characters is a mistake (a stray `y`, a truncated file), and one that short
 * cannot be masked in output without masking those letters everywhere (output/redact.ts): init refuses it
 * rather than write it where every later command would read it.
 */
function refuseShortSecret(secret: string, source: string): void {
  if (secret.length >= MIN_SECRET_LENGTH) return;
  throw configError(
    `the app secret from ${source} is only ${secret.length} character${secret.length === 1 ? '' : 's'} long, which is not an app secret (and too short to mask in output)`,
    'give the whole secret from the console of the Push Message Service',
  );
}

/** Writes through a temporary file and a rename, so a crash never leaves half a config (or half a secret). */
async function writeAtomically(file: string, text: string, mode: number): Promise<void> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode, flag: 'wx' });
    await chmod(temp, mode);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function prune(values: ProfileSettings): ProfileSettings {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')) as ProfileSettings;
}

/** The settings the flags give, checked; a plain-http base URL to a remote host is written with a warning. */
async function givenSettings(options: InitOptions, ctx: Ctx, secrets: SecretSink | undefined, warnings: string[]): Promise<{ given: ProfileSettings; secretGiven: boolean }> {
  if (options.profile === '') throw usageError('--profile needs a non-empty value', 'give --profile the name of the profile to write, or leave the flag out to write the top level');
  // Everywhere --profile is read a comma separates profiles (docs/behaviour.md#targets): a profile named
  // "eu,us" could never be chosen.
  const listed = options.profile?.split(',').map((name) => name.trim());
  if (listed !== undefined && listed.length > 1) {
    throw usageError(`--profile ${options.profile} names ${listed.length} profiles; init writes one at a time`, listed.map((name, i) => `${i === 0 ? '' : 'then '}pushctl init --profile ${name} ...`).join(', '));
  }
  const flagSecret = await readSecret(options, ctx);
  if (flagSecret) refuseShortSecret(flagSecret.value, flagSecret.source);
  secrets?.add(flagSecret?.value);
  const given: ProfileSettings = prune({
    appId: options.appId,
    region: options.region === undefined ? undefined : regionOf(options.region, 'flag --region'),
    baseUrl: options.baseUrl,
    appSecret: flagSecret?.value,
  });
  if (given.baseUrl !== undefined) {
    checkBaseUrl(given.baseUrl, { insecure: true, source: 'flag --base-url' });
    try {
      checkBaseUrl(given.baseUrl, { source: 'flag --base-url' });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      warnings.push(`${error.message}: every command will need --insecure`);
    }
  }
  return { given, secretGiven: flagSecret !== undefined };
}

/** The file as it is, refused when the target section already holds settings (unless `force`). */
async function existingFile(file: string, options: InitOptions): Promise<Record<string, unknown> | null> {
  const existing = await readExisting(file, options.force === true);
  const section = sectionOf(existing, options.profile);
  // No file yet (null) has no profile and no settings.
  // Audiences are lists of recipients, not settings: writing the settings keeps them (see mergedDocument).
  const occupied = Object.keys(section ?? {}).some((k) => k !== 'profiles' && k !== 'audiences') || (options.profile !== undefined && section != null && Object.keys(section).length === 0);
  if (occupied && !options.force) {
    const where = options.profile !== undefined ? `profile "${options.profile}"` : 'settings at its top level';
    throw configError(`${file} already has ${where}`, 'pass --force to replace them, or --profile <name> to add a profile beside them');
  }
  return existing;
}

/**
 * What to write: asked on a terminal (the flags as defaults), else the flags as they are. A top level that
 * would be left with neither a region nor a base URL gets the default region, written out.
 */
async function chosenSettings(options: InitOptions, ctx: Ctx, given: ProfileSettings, secretGiven: boolean, secrets: SecretSink | undefined, existing: Record<string, unknown> | null): Promise<ProfileSettings> {
  let values: ProfileSettings;
  if (!options.yes && ctx.stdin.isTTY === true && ctx.stderr.isTTY === true) {
    const prompter = createPrompter(ctx);
    try {
      const tell = (line: string) => ctx.stderr.write(`${line}\n`);
      values = prune(await askSettings(prompter, tell, given, secretGiven));
      if (values.appSecret !== undefined && !secretGiven) refuseShortSecret(values.appSecret, 'the prompt');
      secrets?.add(values.appSecret);
    } finally {
      prompter.close();
    }
  } else {
    values = given;
    if (values.appId === undefined && values.region === undefined && values.baseUrl === undefined && values.appSecret === undefined) {
      throw usageError('nothing to write', 'pass --app-id <id> (and --region or --base-url), or run pushctl init in a terminal to be asked');
    }
  }
  const placed = existing?.region !== undefined || existing?.baseUrl !== undefined;
  if (values.region === undefined && values.baseUrl === undefined && options.profile === undefined && !placed) values.region = 'global';
  return values;
}

/**
 * The settings of the target section after writing `values`: each setting given replaces the one there
 * (--force), the others are kept, so adding a secret never drops the app ID or moves an India app to the
 * global region. The region and the base URL are one setting (docs/behaviour.md#settings): giving one
 * drops the other.
 */
function mergedSection(section: Record<string, unknown> | undefined, values: ProfileSettings): Record<string, unknown> {
  const kept: Record<string, unknown> = { ...(section ?? {}) };
  if (values.region !== undefined || values.baseUrl !== undefined) {
    delete kept.region;
    delete kept.baseUrl;
  }
  return { ...kept, ...values };
}

/** The target section of a config document: the named profile, or the top level. */
function sectionOf(document: Record<string, unknown> | null, profile: string | undefined): Record<string, unknown> | undefined {
  return (profile !== undefined ? (document?.profiles as Record<string, Record<string, unknown>> | undefined)?.[profile] : document) ?? undefined;
}

/** `document` with its target section replaced by `section`, everything else kept. */
function withSection(document: Record<string, unknown>, profile: string | undefined, section: Record<string, unknown>): Record<string, unknown> {
  const { profiles, ...top } = document;
  if (profile !== undefined) return { ...top, profiles: { ...(profiles as Record<string, unknown> | undefined), [profile]: section } };
  const { profiles: _nested, ...settings } = section;
  // Keep "profiles" last, where a reader expects it.
  return { ...settings, ...(profiles !== undefined ? { profiles } : {}) };
}

/**
 * Puts the audiences into the target section (top level, or the profile). An audience of the same name
 * already in the file is replaced only with `force`: it may be someone's list of phones.
 */
function withAudiences(document: Record<string, unknown>, existing: Record<string, unknown> | null, audiences: Record<string, Audience>, options: InitOptions, file: string): Record<string, unknown> {
  const before = (sectionOf(existing, options.profile)?.audiences ?? {}) as Record<string, Audience>;
  const taken = Object.keys(audiences).find((name) => Object.hasOwn(before, name));
  if (taken !== undefined && !options.force) {
    throw configError(`${file} already has an audience "${taken}"${options.profile !== undefined ? ` in profile "${options.profile}"` : ''}`, 'pass --force to replace it, or choose another name');
  }
  return withSection(document, options.profile, { ...sectionOf(document, options.profile), audiences: { ...before, ...audiences } });
}

/** Files init cannot rewrite as JSON: code, YAML, a package.json's "pushctl" key. */
const notJson = (file: string) => scriptExtensions.has(path.extname(file)) || ['.yaml', '.yml'].includes(path.extname(file)) || path.basename(file) === 'package.json';

/** Whether the search reads `found` before `file`, a file of the same directory (one file per directory is read). */
function readBefore(found: string, file: string): boolean {
  const rank = (place: string) => searchPlaces.indexOf(path.relative(path.dirname(file), place));
  return rank(found) !== -1 && rank(found) < rank(file);
}

/**
 * Where `init --audience` alone writes: the config file every command would read (found by the same search,
 * or PUSHCTL_CONFIG), so the audience sits beside the settings `--to` is used with. A new .pushctlrc.json
 * here would be found first and hide that file's app ID, base URL and secret. `fallback` (this directory's
 * .pushctlrc.json) when no file is in effect; a file in effect that init cannot rewrite is refused by name.
 */
async function configInEffect(ctx: Ctx, fallback: string): Promise<string> {
  const found = await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, allowJavaScript: ctx.runJavaScriptConfig ?? true });
  if (found === null) return fallback;
  if (notJson(found.filepath)) {
    const fate = readBefore(found.filepath, fallback) ? 'would not be read' : 'would hide its settings';
    throw configError(
      `the config file in effect is ${found.filepath}, which init cannot add to (it writes whole JSON files), and a new ${path.basename(fallback)} here ${fate}`,
      `add "audiences" to it by hand (pushctl config lists them once there), or pass -c <file> to write the audience elsewhere`,
    );
  }
  return found.filepath;
}

/**
 * The config file in effect, which a new `file` would hide; undefined when none (or it cannot be read). One
 * of `file`'s own directory that the search reads first (package.json's "pushctl" key, a .pushctlrc) would
 * hide `file` instead, which would then never be read: that is refused before anything is written.
 */
async function hiddenConfig(ctx: Ctx, file: string): Promise<string | undefined> {
  let found: string | undefined;
  try {
    found = (await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, allowJavaScript: ctx.runJavaScriptConfig ?? true }))?.filepath;
  } catch {
    // A broken or untrusted file is refused by every command that reads it, which says so: nothing to add here.
    return undefined;
  }
  if (found === undefined) return undefined;
  if (readBefore(found, file)) {
    const name = path.basename(found);
    throw configError(
      `a new ${file} would not be read: ${found} is found before it in this directory`,
      name === 'package.json' ? `put the settings in the "pushctl" key of ${name}, or remove that key and run pushctl init again` : `put the settings in ${name}, or remove it and run pushctl init again`,
    );
  }
  return found;
}

/** What the commands run here read instead of the file init wrote (or beside it), when that is not plain. */
async function readingWarning(ctx: Ctx, options: InitOptions, file: string, hidden: string | undefined): Promise<string | undefined> {
  const configured = ctx.env.PUSHCTL_CONFIG;
  if (configured && path.resolve(ctx.cwd, configured) !== file) return `PUSHCTL_CONFIG points at ${path.resolve(ctx.cwd, configured)}, so pushctl will read that file, not ${file}`;
  if (hidden !== undefined) {
    // init writes JSON alone: a YAML or JavaScript file is added to by hand.
    const instead = notJson(hidden) ? 'to keep it, add these settings to it by hand and remove this file' : `to add to it instead: pushctl init -c ${hidden} ...`;
    return `${file} is found before ${hidden}, so commands run here no longer read that file's settings; ${instead}`;
  }
  if ((options.config === undefined && !options.global) || configured) return undefined;
  const found = (await loadConfigFile({ cwd: ctx.cwd, env: ctx.env, allowJavaScript: ctx.runJavaScriptConfig ?? true }).catch(() => null))?.filepath;
  if (found === file) return undefined;
  // The user config is read where no project file is: from inside a project that has one, it seems ignored.
  if (options.global) return found === undefined ? undefined : `commands run here read ${found}, which is found before the user config; ${file} applies where no project file is found`;
  // A name of the user's own (custom.json) is read only when named: say so, or the settings seem ignored.
  return `commands run here do not find ${file} by themselves: pass -c ${file}, or set PUSHCTL_CONFIG to it`;
}

/**
 * `pushctl init`: writes the app ID, region or base URL, and optionally the secret to a JSON config
 * file, at its top level or under `profiles.<name>`. Asks on a terminal unless `yes`; refuses to replace
 * settings already in that place without `force`. A file holding a secret gets mode 600. Returns what it
 * wrote; printing it is output/init.ts's business.
 */
export async function init(options: InitOptions, ctx: Ctx & { scrubber?: SecretSink }): Promise<InitOutcome> {
  const secrets = ctx.scrubber;
  const named = targetPath(options, ctx);
  const warnings: string[] = [];
  const audiences = parseAudienceFlags(options.audience);
  const { given, secretGiven } = await givenSettings(options, ctx, secrets, warnings);
  // Only --audience: add the audiences beside whatever the file holds, asking nothing and replacing no setting.
  const audiencesOnly = audiences !== undefined && Object.keys(given).length === 0;
  const file = audiencesOnly && options.config === undefined && !options.global ? await configInEffect(ctx, named) : named;
  // Check for a conflict before asking anything: answering questions only to be refused is annoying.
  const existing = audiencesOnly ? await readExisting(file, false) : await existingFile(file, options);
  // A new file here is found before any other: the one in effect until now stops being read (a warning).
  const hidden = existing === null && !options.global && options.config === undefined ? await hiddenConfig(ctx, file) : undefined;
  const values = audiencesOnly ? {} : await chosenSettings(options, ctx, given, secretGiven, secrets, existing);
  // The target section's settings merged (see mergedSection), everything else kept.
  const merged = audiencesOnly ? { ...existing } : withSection({ ...existing }, options.profile, mergedSection(sectionOf(existing, options.profile), values));
  const document = audiences ? withAudiences(merged, existing, audiences, options, file) : merged;

  const profiles = Object.values((document.profiles as Record<string, ProfileSettings> | undefined) ?? {});
  const holdsSecret = document.appSecret !== undefined || profiles.some((p) => p?.appSecret !== undefined);
  const previousMode = existing === null ? undefined : (await stat(file)).mode & 0o777;
  try {
    makeDirs(path.dirname(file), options.global ? 0o700 : 0o777);
  } catch (error) {
    // A directory that cannot be made is the path's fault, not a bug in pushctl.
    throw configError(`cannot create the directory of ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'choose a --config path in a directory you can write to');
  }
  await writeAtomically(file, `${JSON.stringify(document, null, 2)}\n`, holdsSecret ? 0o600 : (previousMode ?? 0o644));

  if (values.appSecret !== undefined && !options.global) {
    warnings.push(`${file} now holds the app secret: keep it out of version control (add ${path.basename(file)} to .gitignore)`);
  }
  if (!holdsSecret && !audiencesOnly) {
    // --profile a,b refuses PUSHCTL_APP_SECRET (one secret for every target); a profile's own variable serves alone too.
    const variable = options.profile !== undefined ? profileSecretEnv(options.profile) : 'PUSHCTL_APP_SECRET';
    // Where the variable is already set, telling the user to set it would be untrue: say where sends read it.
    warnings.push(
      ctx.env[variable]
        ? `the app secret is not stored: sends read it from ${variable} (set here), or from --app-secret-file <path>`
        : `the app secret is not stored: set ${variable}, or pass --app-secret-file <path>, when sending`,
    );
  }
  const reading = await readingWarning(ctx, options, file, hidden);
  if (reading !== undefined) warnings.push(reading);
  const prefix = options.profile !== undefined ? `profiles.${options.profile}.` : '';
  return {
    exitCode: ExitCode.ok,
    path: file,
    created: existing === null,
    profile: options.profile ?? null,
    keys: [...Object.keys(values), ...Object.keys(audiences ?? {}).map((name) => `audiences.${name}`)].map((k) => prefix + k),
    secretStored: values.appSecret !== undefined,
    mode: (await stat(file)).mode & 0o777,
    warnings,
  };
}

export const command = runnable(initOptionsSchema, init, printInitOutcome);
