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
 * directory (inclusive), or up to the root when the working directory is outside home.
 */
export function searchDirs(cwd: string, home: string): string[] {
  const stop = path.resolve(home);
  const dirs: string[] = [];
  let dir = path.resolve(cwd);
  for (;;) {
    dirs.push(dir);
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) return dirs;
    dir = parent;
  }
}
