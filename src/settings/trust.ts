// Files of other users are not settings (docs/behaviour.md#trust). A config file decides where the app secret goes
// (`baseUrl`), and a JavaScript one runs with the user's rights: one that another user wrote, or could
// rewrite, must not be obeyed — as git refuses a repository owned by someone else (`safe.directory`).
// Checked with stat(2) before anything loads the file.
import { readFileSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { configError } from '../errors.js';

/** Who runs pushctl: whose files are trusted besides root's. */
export interface Reader {
  uid: number;
  gid: number;
}

/** The reader of this process; undefined where there are no POSIX owners (Windows). */
export function currentReader(): Reader | undefined {
  return process.getuid && process.getgid ? { uid: process.getuid(), gid: process.getgid() } : undefined;
}

/** A file or directory owned by the reader or by root (who can change anything anyway) is the reader's. */
export const ownedByReader = (stats: Pick<Stats, 'uid'>, reader: Reader): boolean => stats.uid === reader.uid || stats.uid === 0;

/**
 * Whether someone besides the reader (and root) can change what `stats` describes through its mode: writable
 * by others, or by a group that is not the reader's own primary group (with user-private groups, the
 * default umask 002 makes every directory group-writable by its owner alone). The sticky bit on a
 * directory lets no one rename or replace another's files in it (/tmp), so such a directory is safe.
 */
export function writableByOthers(stats: Pick<Stats, 'mode' | 'gid'>, reader: Reader, isDirectory: boolean): boolean {
  if (isDirectory && (stats.mode & 0o1000) !== 0) return false;
  if ((stats.mode & 0o002) !== 0) return true;
  return (stats.mode & 0o020) !== 0 && stats.gid !== reader.gid;
}

/** A user's name for messages, from /etc/passwd where there is one; `uid N` otherwise. */
export function ownerName(uid: number): string {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid));
    if (line) return `${line.split(':')[0]} (uid ${uid})`;
  } catch {
    // No passwd file: the number says it.
  }
  return `uid ${uid}`;
}

export const modeOf = (stats: Pick<Stats, 'mode'>) => (stats.mode & 0o7777).toString(8).padStart(3, '0');

/**
 * Throws a configError (exit 6) when the config file at `filepath`, or a directory it was found in (`dirs`,
 * outermost first), is owned by another user (not root) or writable by others. The message names the file,
 * its owner and how to trust it. Errors of stat(2) (ENOENT...) are thrown as they are.
 */
export function assertTrustedConfig(filepath: string, dirs: readonly string[], reader: Reader | undefined): void {
  if (!reader) return;
  const trust = `move it into a directory of yours, or name it with --config ${filepath} if you trust it`;
  const file = statSync(filepath);
  if (!ownedByReader(file, reader)) {
    throw configError(`config file ${filepath} is owned by ${ownerName(file.uid)}, not by you: pushctl does not take settings from another user's file`, trust);
  }
  if (writableByOthers(file, reader, false)) {
    throw configError(`config file ${filepath} can be changed by other users (mode ${modeOf(file)}): pushctl does not take settings from it`, `run: chmod go-w ${filepath}, or ${trust}`);
  }
  for (const dir of dirs) {
    const stats = statSync(dir);
    if (!ownedByReader(stats, reader)) {
      throw configError(`config file ${filepath} is in ${dir}, owned by ${ownerName(stats.uid)}, not by you: pushctl does not take settings from another user's directory`, trust);
    }
    if (writableByOthers(stats, reader, true)) {
      throw configError(
        `config file ${filepath} is in ${dir}, which other users can write (mode ${modeOf(stats)}, no sticky bit): anyone could have put it there`,
        `run: chmod go-w ${dir}, or ${trust}`,
      );
    }
  }
}

/** The directories from `top` down to the one holding `filepath` (`.config/pushctlrc` has two). */
export function dirsDownTo(top: string, filepath: string): string[] {
  const dirs = [top];
  for (let dir = path.dirname(filepath); dir !== top && dir.startsWith(top + path.sep); dir = path.dirname(dir)) dirs.splice(1, 0, dir);
  return dirs;
}

/** Whether a config file is JavaScript, which loading runs. */
export const isJavaScriptConfig = (filepath: string): boolean => /\.(c|m)?js$/.test(filepath);
