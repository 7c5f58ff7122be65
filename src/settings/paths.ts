import os from 'node:os';
import path from 'node:path';

type Env = Record<string, string | undefined>;

/** The home directory according to `env`, so tests (and `HOME=... pushctl`) control it. */
export function homeDir(env: Env): string {
  return env.HOME || env.USERPROFILE || os.homedir();
}

/**
 * The user's config directory for pushctl, computed as cosmiconfig's global search does (env-paths),
 * but from `env` instead of `process.env`: `$XDG_CONFIG_HOME/pushctl` or `~/.config/pushctl` on Linux,
 * `~/Library/Preferences/pushctl` on macOS (unless XDG_CONFIG_HOME is set), `%APPDATA%\pushctl\Config` on Windows.
 */
export function userConfigDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const home = homeDir(env);
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'pushctl', 'Config');
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'pushctl');
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'pushctl');
  return path.join(home, '.config', 'pushctl');
}

/**
 * The directories searched for a project config: the working directory and its parents up to the home
 * directory (inclusive). Outside home there is no such stop, so the walk goes up through directories that
 * `isOurs` (the user's or root's) and stops before the first that is not: a directory another user owns is
 * theirs to fill with configs (the shared `/srv/build` above a checkout, a colleague's tree).
 */
export function searchDirs(cwd: string, home: string, isOurs: (dir: string) => boolean = () => true): string[] {
  const stop = path.resolve(home);
  const start = path.resolve(cwd);
  const insideHome = start === stop || start.startsWith(stop.endsWith(path.sep) ? stop : stop + path.sep);
  const dirs: string[] = [];
  let dir = start;
  for (;;) {
    dirs.push(dir);
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) return dirs;
    if (!insideHome && !isOurs(parent)) return dirs;
    dir = parent;
  }
}
