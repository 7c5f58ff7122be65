// Synchronous on purpose: a handful of small reads on the start-up path of every command, where each
// asynchronous one costs a thread-pool round trip (and node:fs/promises a module load).
import { flagAndValue } from '../shell-quote.js';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliError, configError } from '../errors.js';
import { listDir } from '../list-dir.js';
import { settingsSchemas, type ConfigFile } from './schema.js';
import { describeIssues } from './config-issues.js';
import { configSyntaxError } from './config-syntax-error.js';
import { homeDir, searchDirs, userConfigDir } from './paths.js';
import { assertTrustedConfig, currentReader, dirsDownTo, isJavaScriptConfig, ownedByReader, type Reader } from './trust.js';
import { bomTolerant, refuseOtherEncoding } from './config-encoding.js';

type Env = Record<string, string | undefined>;

export { homeDir, searchDirs, userConfigDir } from './paths.js';

/** Where a config file came from: `--config`, `PUSHCTL_CONFIG`, or the search. */
export type ConfigOrigin = 'flag' | 'env' | 'search';

/** A config file that was found, parsed and validated. */
export interface LoadedConfig {
  filepath: string;
  config: ConfigFile;
  origin: ConfigOrigin;
  /** Problems worth telling the user that do not stop the command (e.g. a secret readable by others). */
  warnings: string[];
}

export interface LoadConfigOptions {
  cwd: string;
  /** `-c/--config`; wins over `PUSHCTL_CONFIG`. */
  explicitPath?: string;
  env: Env;
  /** For tests; defaults to `process.platform`. */
  platform?: NodeJS.Platform;
  /**
   * False in the GitHub Action: a pull request can change a JavaScript config, and loading one runs it, so
   * one is refused rather than loaded. Default true.
   */
  allowJavaScript?: boolean;
}

const DATA = ['', '.json', '.yaml', '.yml'];
const CODE = ['.js', '.cjs', '.mjs'];
/**
 * Project search places: cosmiconfig's defaults in its order, less TypeScript configs (they would need a
 * compiler) and the JavaScript ones under .config/, and with pushctl.config.json/.yaml/.yml beside
 * pushctl.config.js: a user who reads that one name writes the others, and was told no file was found.
 */
export const searchPlaces = [
  'package.json',
  ...[...DATA, ...CODE].map((ext) => `.pushctlrc${ext}`),
  ...DATA.map((ext) => `.config/pushctlrc${ext}`),
  ...[...DATA.filter((ext) => ext !== ''), ...CODE].map((ext) => `pushctl.config${ext}`),
];

/** File names looked for in the user's config directory (cosmiconfig's global search places). */
export const userSearchPlaces = [...DATA, ...CODE].map((ext) => `config${ext}`);

type Explorer = { search(from?: string): Promise<RawResult>; load(filepath: string): Promise<RawResult> };
type RawResult = { filepath: string; config: unknown; isEmpty?: boolean } | null;

async function explorer(places: string[], cwd: string): Promise<Explorer> {
  try {
    return await createExplorer(places);
  } catch (error) {
    // cosmiconfig reads the package.json of the process's working directory for a "cosmiconfig" key as
    // it is created; a broken one lands here.
    throw await readError((error as { filepath?: string }).filepath ?? path.join(cwd, 'package.json'), error, 'search');
  }
}

async function createExplorer(places: string[]): Promise<Explorer> {
  // cosmiconfig (and its YAML and JSON parsers) load only when a command needs settings: start-up speed.
  // cosmiconfig is CommonJS: bundled into ESM its exports arrive under `default`, unbundled (tests) by name.
  const mod = (await import('cosmiconfig')) as typeof import('cosmiconfig') & { default?: typeof import('cosmiconfig') };
  const cosmiconfig = mod.cosmiconfig ?? mod.default!.cosmiconfig;
  // searchStrategy 'none' checks one directory per search() call; the walk is ours, so that the home and
  // user config directories come from the env we were given rather than from process.env.
  const loaders = mod.defaultLoaders ?? mod.default!.defaultLoaders;
  return cosmiconfig('pushctl', { searchPlaces: places, searchStrategy: 'none', cache: false, loaders: { '.json': bomTolerant(loaders['.json']) } });
}

async function readError(filepath: string, error: unknown, origin: ConfigOrigin) {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const via = origin === 'flag' ? '--config' : origin === 'env' ? 'PUSHCTL_CONFIG' : undefined;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return configError(
      `config file ${filepath} does not exist`,
      via ? `check the path given to ${via}, or create the file with: pushctl init ${flagAndValue('--config', filepath)}` : undefined,
    );
  }
  if (code === 'EISDIR') return configError(`config path ${filepath} is a directory, not a file`, via && `point ${via} at a file`);
  if (code === 'EACCES' || code === 'EPERM') {
    return configError(`cannot read config file ${filepath}: permission denied`, `check the file's owner and mode`);
  }
  return configSyntaxError(filepath, error);
}

function holdsSecret(config: ConfigFile): boolean {
  return config.appSecret !== undefined || Object.values(config.profiles ?? {}).some((p) => p.appSecret !== undefined);
}

async function permissionWarnings(filepath: string, config: ConfigFile, platform: NodeJS.Platform): Promise<string[]> {
  // Windows has no meaningful group/other mode bits; its ACLs are out of reach here.
  if (platform === 'win32' || !holdsSecret(config)) return [];
  const { mode } = statSync(filepath);
  if ((mode & 0o044) === 0) return [];
  const octal = (mode & 0o777).toString(8);
  return [
    `config file ${filepath} holds appSecret and is readable by group or others (mode ${octal}); ` +
      `run: chmod 600 ${filepath} (or keep the secret in PUSHCTL_APP_SECRET instead)`,
  ];
}

/**
 * The config files `dir` holds, in `places` order (a package.json counts only with a "pushctl" key): found
 * with plain directory listings, so that nothing is loaded (or run) before it is checked.
 */
function configFilesIn(dir: string, places: readonly string[]): string[] {
  if (!mayHoldAny(dir, places)) return [];
  const names = new Set(listDir(dir));
  const nested = places.some((p) => p.startsWith('.config/')) && names.has('.config') ? listDir(path.join(dir, '.config')) : [];
  for (const nestedName of nested) names.add(`.config/${nestedName}`);
  return places.filter((place) => names.has(place) && (place !== 'package.json' || hasPushctlKey(path.join(dir, place)))).map((place) => path.join(dir, place));
}

/**
 * Whether any of `places` may be in `dir`: a look at each name (lstat, so a dangling link counts, as in a
 * listing) costs the same in any directory, where listing one costs by its size, and the search walks
 * through large shared ones (/tmp, a home). Only a directory that may hold one is then listed, which
 * decides by exact name as before (a case-insensitive file system also answers for `PACKAGE.JSON`).
 */
function mayHoldAny(dir: string, places: readonly string[]): boolean {
  return places.some((place) => {
    try {
      return lstatSync(path.join(dir, place), { throwIfNoEntry: false }) !== undefined;
    } catch {
      // Not a plain "no such file" (a file where a directory was expected, no permission): the listing decides.
      return true;
    }
  });
}

function hasPushctlKey(file: string): boolean {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // Unreadable: treated as holding no config, as a missing file is.
  }
  // A package.json that does not parse is left to cosmiconfig, which says where it is broken.
  try {
    return Object.hasOwn(JSON.parse(text) ?? {}, 'pushctl');
  } catch {
    return true;
  }
}

function validate(filepath: string, raw: unknown): ConfigFile {
  const parsed = settingsSchemas().configFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = describeIssues(parsed.error.issues, raw);
  const first = problems[0] ?? { text: 'invalid content', fix: undefined };
  const more = problems.slice(1).map((p) => p.text);
  throw configError([`invalid config file ${filepath}: ${first.text}`, ...more].join('; '), first.fix);
}

/**
 * Finds, reads and validates the pushctl config file.
 *
 * An explicit path (`explicitPath`, else `PUSHCTL_CONFIG`) must exist. Otherwise the search goes up from
 * `cwd` to the home directory (outside home: up through directories owned by the user or root, see
 * searchDirs), then looks in the user's config directory; `null` when nothing is found. A file found by the
 * search or named by PUSHCTL_CONFIG that another user owns or can change is refused before it is loaded
 * (trust.ts); `--config` is the user's own word and trusted. Invalid content is a configError (exit 6)
 * naming the file, the key and the fix.
 */
export async function loadConfigFile(options: LoadConfigOptions): Promise<LoadedConfig | null> {
  const { cwd, env } = options;
  const platform = options.platform ?? process.platform;
  const explicit = options.explicitPath || env.PUSHCTL_CONFIG || undefined;
  const origin: ConfigOrigin = options.explicitPath ? 'flag' : explicit ? 'env' : 'search';
  const reader = platform === 'win32' ? undefined : currentReader();
  const allowJavaScript = options.allowJavaScript ?? true;

  let result: RawResult = null;
  if (explicit !== undefined) {
    const filepath = path.resolve(cwd, explicit);
    try {
      refuseSpecialFile(filepath, origin);
      refuseOtherEncoding(filepath);
      refuseJavaScript(filepath, allowJavaScript);
      if (origin === 'env') assertTrustedConfig(filepath, [path.dirname(filepath)], reader);
      result = await (await explorer(searchPlaces, cwd)).load(filepath);
    } catch (error) {
      throw error instanceof CliError ? error : await readError(filepath, error, origin);
    }
    if (result === null && path.basename(filepath) === 'package.json') {
      // cosmiconfig answers null for a package.json without a "pushctl" key.
      throw configError(`config file ${filepath} has no "pushctl" key`, 'add a "pushctl" object to it, or point --config at another file');
    }
    // A YAML file holding only `null` (or `~`) is as good as empty.
    result ??= { filepath, config: undefined, isEmpty: true };
  } else {
    result = await searchConfig(cwd, env, platform, reader, allowJavaScript);
    if (!result) return null;
  }

  // An empty file is a valid, empty config.
  const config = validate(result.filepath, result.isEmpty ? {} : result.config);
  return { filepath: result.filepath, config, origin, warnings: await permissionWarnings(result.filepath, config, platform) };
}

/**
 * The search: the first non-empty config file of the project directories, then of the user's config
 * directory. Most runs have no config file at all: candidates are found with plain directory listings, and
 * cosmiconfig (about 20 ms of start-up) loads only for a directory that holds one.
 */
async function searchConfig(cwd: string, env: Env, platform: NodeJS.Platform, reader: Reader | undefined, allowJavaScript: boolean): Promise<RawResult> {
  const ours = (dir: string) => !reader || ownedByReader(statSync(dir, { throwIfNoEntry: false }) ?? { uid: -1 }, reader);
  const candidates: [string, string[]][] = [...searchDirs(cwd, homeDir(env), ours).map((dir): [string, string[]] => [dir, searchPlaces]), [userConfigDir(env, platform), userSearchPlaces]];
  for (const [dir, places] of candidates) {
    for (const filepath of configFilesIn(dir, places)) {
      try {
        refuseSpecialFile(filepath, 'search');
        refuseJavaScript(filepath, allowJavaScript);
        assertTrustedConfig(filepath, dirsDownTo(dir, filepath), reader);
        refuseOtherEncoding(filepath);
      } catch (error) {
        throw error instanceof CliError ? error : await readError(filepath, error, 'search');
      }
      const result = await (await explorer(places, cwd)).load(filepath).catch(async (error: unknown) => {
        throw await readError((error as { filepath?: string }).filepath ?? filepath, error, 'search');
      });
      // As cosmiconfig's own search: an empty file is passed over for the next place.
      if (result && !result.isEmpty && result.config != null) return result;
    }
  }
  return null;
}

/**
 * A config path, named or found, that is a FIFO, a device or a socket (docs/behaviour.md#trust): a FIFO no one
 * writes would hang the load for ever, deaf to signals, and /dev/zero never ends. A directory or a missing file
 * is left to the loader, whose error names it.
 */
function refuseSpecialFile(filepath: string, origin: ConfigOrigin): void {
  const stats = statSync(filepath, { throwIfNoEntry: false });
  if (!stats || stats.isFile() || stats.isDirectory()) return;
  const kind = stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : 'a device';
  const fix = origin === 'search' ? `move it away, or name a config file with --config` : `write the settings to a file and name it with ${origin === 'env' ? 'PUSHCTL_CONFIG' : '--config'}`;
  throw configError(`config file ${filepath} is not a regular file (it is ${kind}): settings are read from a file`, fix);
}

function refuseJavaScript(filepath: string, allowJavaScript: boolean): void {
  if (allowJavaScript || !isJavaScriptConfig(filepath)) return;
  throw configError(
    `config file ${filepath} is JavaScript, which the action does not run: a pull request can change it, and loading it would run its code`,
    'keep the settings in the action\'s inputs, or in .pushctlrc.json or .pushctlrc.yaml',
  );
}
