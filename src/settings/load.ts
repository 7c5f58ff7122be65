// Synchronous on purpose: a handful of small reads on the start-up path of every command, where each
// asynchronous one costs a thread-pool round trip (and node:fs/promises a module load).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliError, configError } from '../errors.js';
import { configFileSchema, type ConfigFile } from './schema.js';
import { describeIssues } from './config-issues.js';
import { configSyntaxError } from './config-syntax-error.js';
import { homeDir, searchDirs, userConfigDir } from './paths.js';

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
}

/** Project search places, in cosmiconfig's order; TypeScript configs are left out (they would need a compiler). */
export const searchPlaces = [
  'package.json',
  '.pushctlrc',
  '.pushctlrc.json',
  '.pushctlrc.yaml',
  '.pushctlrc.yml',
  '.pushctlrc.js',
  '.pushctlrc.cjs',
  '.pushctlrc.mjs',
  '.config/pushctlrc',
  '.config/pushctlrc.json',
  '.config/pushctlrc.yaml',
  '.config/pushctlrc.yml',
  'pushctl.config.js',
  'pushctl.config.cjs',
  'pushctl.config.mjs',
];

/** File names looked for in the user's config directory (cosmiconfig's global search places). */
export const userSearchPlaces = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.cjs', 'config.mjs'];

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
  return cosmiconfig('pushctl', { searchPlaces: places, searchStrategy: 'none', cache: false });
}

async function readError(filepath: string, error: unknown, origin: ConfigOrigin) {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const via = origin === 'flag' ? '--config' : origin === 'env' ? 'PUSHCTL_CONFIG' : undefined;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return configError(
      `config file ${filepath} does not exist`,
      via ? `check the path given to ${via}, or create the file with: pushctl init --config ${filepath}` : undefined,
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
 * Whether `dir` has one of `places` (a package.json counts only with a "pushctl" key). A cheap pre-check:
 * cosmiconfig then reads the file, so parse errors are still reported by it.
 */
function mayHoldConfig(dir: string, places: readonly string[]): boolean {
  const names = new Set(listDir(dir));
  const nested = places.some((p) => p.startsWith('.config/')) && names.has('.config') ? listDir(path.join(dir, '.config')) : [];
  for (const nestedName of nested) names.add(`.config/${nestedName}`);
  for (const place of places) {
    if (!names.has(place)) continue;
    if (place !== 'package.json') return true;
    let text = '';
    try {
      text = readFileSync(path.join(dir, place), 'utf8');
    } catch {
      // Unreadable: treated as holding no config, as a missing file is.
    }
    // A package.json that does not parse is left to cosmiconfig, which says where it is broken.
    try {
      if (Object.hasOwn(JSON.parse(text) ?? {}, 'pushctl')) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** A directory's names; none when it is missing or unreadable. */
function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function validate(filepath: string, raw: unknown): ConfigFile {
  const parsed = configFileSchema.safeParse(raw);
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
 * `cwd` to the home directory, then looks in the user's config directory; `null` when nothing is found.
 * Invalid content is a configError (exit 6) naming the file, the key and the fix.
 */
export async function loadConfigFile(options: LoadConfigOptions): Promise<LoadedConfig | null> {
  const { cwd, env } = options;
  const platform = options.platform ?? process.platform;
  const explicit = options.explicitPath || env.PUSHCTL_CONFIG || undefined;
  const origin: ConfigOrigin = options.explicitPath ? 'flag' : explicit ? 'env' : 'search';

  let result: RawResult = null;
  if (explicit !== undefined) {
    const filepath = path.resolve(cwd, explicit);
    try {
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
    // Most runs have no config file at all: look for candidates with plain directory listings first, and
    // load cosmiconfig (about 20 ms of start-up) only for a directory that holds one.
    const userDir = userConfigDir(env, platform);
    const candidates: [string, string[]][] = [...searchDirs(cwd, homeDir(env)).map((dir): [string, string[]] => [dir, searchPlaces]), [userDir, userSearchPlaces]];
    for (const [dir, places] of candidates) {
      if (!mayHoldConfig(dir, places)) continue;
      result = await (await explorer(places, cwd)).search(dir).catch(async (error: unknown) => {
        throw await readError((error as { filepath?: string }).filepath ?? dir, error, origin);
      });
      if (result) break;
    }
    if (!result) return null;
  }

  // An empty file is a valid, empty config.
  const config = validate(result.filepath, result.isEmpty ? {} : result.config);
  return { filepath: result.filepath, config, origin, warnings: await permissionWarnings(result.filepath, config, platform) };
}
