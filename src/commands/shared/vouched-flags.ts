// What a command built from a journal may carry (docs/behaviour.md#trust). A journal is data: anyone who can
// hand the user a journal file can write its command line. A printed resend command is pasted as it is, and a
// flag pasted is the user's own choice, so a journal's `--base-url` would send the user's secret to the host
// it names, and its `--app-secret-file` or `--config` would pick which secret. Such a flag is repeated only
// when someone the user trusts vouches for it: the journal lies in the user's own runs directory, where only
// the user's pushctl writes (it is the user's, and no one else can change it), or the process printing the
// command was given the same value first-hand. The flags that only choose among the user's own settings (app,
// region, profile, timeout, the secret on stdin) are repeated as recorded.
import { lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runsDir } from '../../journal/runs-dir.js';
import { envNames } from '../../settings/resolve.js';
import { currentReader, ownedByReader, writableByOthers } from '../../settings/trust.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Flags that name a host or a file to read, or allow plain HTTP to a remote host. */
const CHOOSING = new Set(['--base-url', '--config', '-c', '--app-secret-file', '--insecure', '--client-ids-file']);
const BARE = new Set(['--app-secret-stdin', '--insecure']);

/** `flags` (as settingsFlags gives them) cut into words: a flag with its value, or a bare flag alone. */
function flagWords(flags: readonly string[]): string[][] {
  const words: string[][] = [];
  for (let i = 0; i < flags.length; i++) words.push(BARE.has(flags[i]!) || i + 1 >= flags.length ? [flags[i]!] : [flags[i]!, flags[++i]!]);
  return words;
}

/** `-c` and `--config` are one flag. */
const sameFlag = (word: readonly string[]) => [word[0] === '-c' ? '--config' : word[0]!, ...word.slice(1)].join('\0');

export interface VouchedFlags {
  /** The flags the printed command carries. */
  flags: string[];
  /** Those left out, each with its value ("--base-url https://…"), said beside the command. */
  leftOut: string[];
}

/** Decides which of a journal's settings flags a printed command carries. */
export type Voucher = (journalFlags: readonly string[]) => VouchedFlags;

/**
 * The journal's settings flags a printed command may carry: all of them when `writtenHere`, else those naming
 * a host or a file only when `firstHand` (the settings flags the printing process was given itself) has them.
 */
export function vouchedFlags(journal: readonly string[], firstHand: readonly string[], writtenHere = false): VouchedFlags {
  if (writtenHere) return { flags: [...journal], leftOut: [] };
  const given = new Set(flagWords(firstHand).map(sameFlag));
  const flags: string[] = [];
  const leftOut: string[] = [];
  for (const word of flagWords(journal)) {
    if (!CHOOSING.has(word[0]!) || given.has(sameFlag(word))) flags.push(...word);
    else leftOut.push(word.join(' '));
  }
  return { flags, leftOut };
}

/**
 * Whether the journal at `path` is one the user's own pushctl wrote: a regular file of the user's, directly
 * in the runs directory, which is the user's (or root's) and which no one else can change. A journal given
 * by a path elsewhere (a download, a copy, another user's directory) is data from elsewhere.
 */
export function writtenHere(path: string, env: Env): boolean {
  const dir = resolve(runsDir(env));
  if (dirname(resolve(path)) !== dir) return false;
  const reader = currentReader();
  // No POSIX owners (Windows): the runs directory is the user's profile's.
  if (!reader) return true;
  try {
    const folder = statSync(dir);
    const file = lstatSync(path);
    return ownedByReader(folder, reader) && !writableByOthers(folder, reader, true) && file.isFile() && file.uid === reader.uid;
  } catch {
    return false;
  }
}

/**
 * The environment's settings as the flags that would give them: a journal's `--base-url` that the user's
 * PUSHCTL_BASE_URL names too is the user's own choice, as is a `--config` that PUSHCTL_CONFIG names.
 */
export function envFlags(env: Env, cwd: string): string[] {
  const baseUrl = env[envNames.baseUrl];
  const config = env[envNames.config];
  return [...(baseUrl ? ['--base-url', baseUrl] : []), ...(config ? ['--config', resolve(cwd, config)] : [])];
}

/**
 * The voucher for the journal at `path`, read by a process in `ctx` that was given `given` besides its
 * environment (its own command line's settings flags, the MCP server's).
 */
export const voucherFor =
  (path: string, ctx: { env: Env; cwd: string }, given: readonly string[] = []): Voucher =>
  (journalFlags) =>
    vouchedFlags(journalFlags, [...envFlags(ctx.env, ctx.cwd), ...given], writtenHere(path, ctx.env));
