// Owning a `--once` key or a run family before reading what earlier runs did (docs/behaviour.md#ownership).
// A second process waits for the owner, saying every 10 s whom it waits for, or with --no-wait refuses at
// once. Whatever it then reads of the journals, it reads as the owner: nobody else can be sending.
import { dirname, join, resolve } from 'node:path';
import type { Ctx } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { Lease, ownerOf, tryAcquire, type Liveness } from '../../journal/ownership.js';
import { journalHeader, journalPath, newRunId, runsDir } from '../../journal/runs-dir.js';
import { createErrorCode } from '../../journal/run-journal.js';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { currentReader, modeOf, ownedByReader, ownerName, writableByOthers } from '../../settings/trust.js';
import { escapeControl } from '../../output/escape-control.js';

const POLL_MS = 200;
const SAY_EVERY_MS = 10_000;

type Env = Record<string, string | undefined>;

/** Locks live beside the journals of the runs directory, whatever `--journal` names. */
export const locksDir = (env: Env) => join(runsDir(env), '.locks');

/**
 * node:crypto on first use: only a --once key or an odd run id is hashed, and loading it costs every send a
 * millisecond or two.
 */
const sha256Hex = (text: string): string => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');

/** The lock of a `--once` key: a key belongs to an app at a destination (docs/behaviour.md#once). */
export function onceLockName(key: string, appId: string, baseUrl: string, dryRun: boolean): string {
  return `once-${sha256Hex(JSON.stringify([key, appId, baseUrl, dryRun])).slice(0, 40)}`;
}

/** What a run id read from a file must look like to be used in a name (a lock's, a journal's). */
const RUN_ID_SHAPE = /^[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;

/** The lock of the family of runs whose first run is `rootRunId`. A run id read from a file is not trusted as a name. */
export function familyLockName(rootRunId: string): string {
  return RUN_ID_SHAPE.test(rootRunId) ? `run-${rootRunId}` : `run-${sha256Hex(rootRunId).slice(0, 40)}`;
}

export interface OwnOptions {
  /** What the lock stands for, in words: "--once release-2", "run 20261122-…". */
  what: string;
  /** false with --no-wait. */
  wait: boolean;
  /**
   * The command could do without the lock given --no-journal: a plain send. Not --once (it needs the
   * journal) nor a resend (it owns its run's family with or without a journal of its own).
   */
  journalOptional?: boolean;
  /** The locks directory, when not the runs directory's. */
  dir?: string;
}

function ownerWords(liveness: Liveness, env: Ctx['env']): string {
  const owner = liveness.state === 'free' ? undefined : liveness.owner;
  if (!owner) return 'another pushctl process';
  const where = `pid ${owner.pid}${owner.host ? ` on ${escapeControl(owner.host)}` : ''}`;
  const target = targetOf(owner.run_id, env);
  // A target of a run of several is named by its family, as `runs`, `runs show` and `resend` take it.
  if (target) return `run ${escapeControl(target.family)} (${where}; target ${escapeControl(target.profile)}: run ${escapeControl(owner.run_id)})`;
  return `run ${escapeControl(owner.run_id)} (${where})`;
}

/**
 * The family and profile of run `runId` when it is a target of a run of several, as its journal's header says;
 * undefined when it is not, or its journal is not (yet) in the runs directory. The id comes from a lock file:
 * only one shaped as a run id is looked up, so it cannot name a path.
 */
function targetOf(runId: string, env: Ctx['env']): { family: string; profile: string } | undefined {
  if (!RUN_ID_SHAPE.test(runId)) return undefined;
  const header = journalHeader(journalPath(runsDir(env), runId));
  if (header?.run_id !== runId || typeof header.targets !== 'string' || typeof header.profile !== 'string') return undefined;
  return { family: header.targets, profile: header.profile };
}

/**
 * Refuses a lock directory, or the journal directory holding it, that another user owns or can change through
 * its mode (docs/behaviour.md#ownership): anyone who can remove a lock or a journal there can make a second
 * process send what the first is sending, or a --once key send again. Root's directories are the reader's own.
 */
function assertTrustedLocks(dir: string, { what, journalOptional }: OwnOptions): void {
  const reader = currentReader();
  if (!reader) return;
  for (const [kind, path] of [['journal directory', dirname(dir)], ['lock directory', dir]] as const) {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      // Not made yet: pushctl makes it, mode 700.
      continue;
    }
    const fix = `set PUSHCTL_JOURNAL_DIR to a directory of yours (pushctl makes it, mode 700)${journalOptional ? ', or pass --no-journal (then a kill loses the record)' : ''}`;
    if (!ownedByReader(stats, reader)) {
      throw usageError(`the ${kind} ${path} is owned by ${ownerName(stats.uid)}, not by you: its locks cannot prove who owns ${what}; nothing was sent`, fix);
    }
    if (writableByOthers(stats, reader, true)) {
      throw usageError(
        `the ${kind} ${path} can be changed by other users (mode ${modeOf(stats)}, no sticky bit): they could remove its journals and locks, which prove who owns ${what}; nothing was sent`,
        `run: chmod go-w ${path}, or ${fix}`,
      );
    }
  }
}

/** Owns lock `name` as run `runId`, waiting for its owner unless told not to. */
export async function own(name: string, runId: string, options: OwnOptions, ctx: Pick<Ctx, 'env' | 'stderr' | 'interrupt'>): Promise<Lease> {
  const dir = options.dir ?? locksDir(ctx.env);
  assertTrustedLocks(dir, options);
  const me = ownerOf(runId);
  let saidAt = -Infinity;
  for (;;) {
    let result: Lease | Liveness;
    try {
      result = tryAcquire(dir, name, me);
    } catch (error) {
      const hint = options.journalOptional
        ? 'set PUSHCTL_JOURNAL_DIR to a writable directory, or pass --no-journal (then a kill loses the record)'
        : 'set PUSHCTL_JOURNAL_DIR to a writable directory: the lock that keeps two pushctl processes from sending to the same recipients is kept there';
      throw usageError(`cannot write the lock of ${options.what} in ${dir} (${createErrorCode(dir, error)}); nothing was sent`, hint);
    }
    if (result instanceof Lease) return result;
    const holder = ownerWords(result, ctx.env);
    if (!options.wait) {
      throw usageError(`${options.what} is being sent by ${holder}`, 'wait for it to end (run again without --no-wait), or see it with pushctl runs');
    }
    const now = Date.now();
    if (now - saidAt >= SAY_EVERY_MS) {
      ctx.stderr.write(`waiting for ${holder}, which owns ${options.what} (--no-wait refuses instead)\n`);
      saidAt = now;
    }
    try {
      // The poll's listener goes with the poll: a wait of minutes polls hundreds of times on one signal.
      await new Promise<void>((resolve, reject) => {
        const stop = () => (clearTimeout(timer), reject(ctx.interrupt.reason));
        const timer = setTimeout(() => (ctx.interrupt.removeEventListener('abort', stop), resolve()), POLL_MS);
        ctx.interrupt.addEventListener('abort', stop, { once: true });
      });
    } catch {
      throw new CliError(`stopped while waiting for ${holder}; nothing was sent`, ExitCode.interrupted);
    }
  }
}

/** A directory as the file system names it, so that two spellings of one (a symlink, `..`) compare equal. */
function realDir(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The directory of `journal` when it is another runs directory than this process's: one with locks. */
export function otherRunsDir(journal: string, env: Env): string | undefined {
  const dir = dirname(journal);
  const beside = join(dir, '.locks');
  return existsSync(beside) && realDir(beside) !== realDir(locksDir(env)) ? dir : undefined;
}

/**
 * Where a resend of the run journaled at `journal` keeps its own journal, when `--journal` does not say
 * (`given`): beside it when that is another runs directory. A family is read from its run's directory, and a
 * member elsewhere (the shell's, resending a cron job's run by its path) would be missed by the cron job's
 * next resend or `--once` re-run, which would send its recipients again (docs/behaviour.md#ownership).
 */
export function journalBeside(journal: string, runId: string | undefined, given: string | boolean | undefined, env: Env): { journal?: string } {
  if (runId === undefined || (given !== undefined && given !== true)) return {};
  const other = otherRunsDir(journal, env);
  return other === undefined ? {} : { journal: journalPath(other, runId) };
}

/**
 * Owns the family lock `name` of the run journaled at `journal`: in the runs directory, and beside the journal
 * too when that is another runs directory (one with locks), where the process that wrote it keeps its lock —
 * a journal of a cron job's PUSHCTL_JOURNAL_DIR resent by its path from a shell with the default one. A
 * directory without locks is left without: no file appears beside a journal copied elsewhere.
 */
export async function ownFamily(name: string, runId: string, options: OwnOptions, journal: string, ctx: Pick<Ctx, 'env' | 'stderr' | 'interrupt'>): Promise<Lease[]> {
  const leases = [await own(name, runId, options, ctx)];
  const other = otherRunsDir(journal, ctx.env);
  if (other !== undefined) {
    try {
      leases.push(await own(name, runId, { ...options, dir: join(other, '.locks') }, ctx));
    } catch (error) {
      leases[0]!.release();
      throw error;
    }
  }
  return leases;
}

/** The run ids this process handed out: a run of several targets takes several in the same second. */
const handedOut = new Set<string>();

/**
 * A run id no journal in the runs directory has yet, nor any run of this process (its family lock is then
 * free by construction: two targets of one run never wait on each other's lock).
 */
export function freshRunId(env: Env): string {
  for (;;) {
    const runId = newRunId(new Date());
    if (handedOut.has(runId) || existsSync(journalPath(runsDir(env), runId))) continue;
    handedOut.add(runId);
    return runId;
  }
}
