// One owner per run (docs/behaviour.md#ownership): a `--once` key and a run family are owned by one process
// at a time, on this machine and by any process sharing the journal directory.
//
// The protocol uses only atomic file creation (open with O_EXCL), never check-then-write. A lock is a series
// of generation files `<name>.<n>` in the locks directory; the owner is whoever created the highest
// generation. Taking a free or dead lock means creating generation n+1 of the highest n seen: of every
// process racing for it, exactly one creation succeeds. The highest generation is never deleted (only
// marked released), so its number only grows and a process acting on an old view cannot create a
// generation that is already taken; a winner that then sees a higher generation than its own lost a race
// and steps back.
//
// Liveness is a refreshed lock, not a pid: the owner touches its file every REFRESH_MS, and a lock counts as
// dead once it has not been touched for STALE_MS. A pid proves death only where it can: in the same PID
// namespace of the same boot, an owner whose pid is gone or now belongs to a process that started at
// another time is dead at once (a kill -9 is taken over without waiting out the stale time). An owner in
// another PID namespace (a container sharing the journal volume) is judged by its refreshes alone.
import { closeSync, existsSync, openSync, readFileSync, readlinkSync, statSync, unlinkSync, utimesSync, writeSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processStartTicks, runProcessAlive } from './process-start.js';
import { listDir } from '../list-dir.js';
import { makeDirs } from '../make-dirs.js';

export const REFRESH_MS = 2_000;
export const STALE_MS = 10_000;

/** Who holds a lock: written into its generation file. */
export interface Owner {
  run_id: string;
  pid: number;
  pid_start?: number;
  /** The PID namespace (`pid:[4026531836]`) and boot the pid means something in. */
  pidns?: string;
  boot?: string;
  host: string;
  released?: boolean;
}

export type Liveness = { state: 'free' } | { state: 'live'; owner: Owner | undefined } | { state: 'dead'; owner: Owner | undefined };

interface Generation {
  n: number;
  path: string;
  owner: Owner | undefined;
  touchedMs: number;
}

function readOnce(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const selfNamespace = (): string | undefined => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
};

/** This process as an owner of run `runId`. */
export function ownerOf(runId: string): Owner {
  const pidStart = processStartTicks('self');
  const pidns = selfNamespace();
  const boot = readOnce('/proc/sys/kernel/random/boot_id');
  return { run_id: runId, pid: process.pid, ...(pidStart !== undefined ? { pid_start: pidStart } : {}), ...(pidns ? { pidns } : {}), ...(boot ? { boot } : {}), host: hostname() };
}

/** The generations of lock `name` in `dir`, highest first. */
function generations(dir: string, name: string): number[] {
  const prefix = `${name}.`;
  const numbers: number[] = [];
  for (const entry of listDir(dir)) {
    if (!entry.startsWith(prefix)) continue;
    const rest = entry.slice(prefix.length);
    if (/^[1-9]\d{0,15}$/.test(rest)) numbers.push(Number(rest));
  }
  return numbers.sort((a, b) => b - a);
}

function parseOwner(text: string): Owner | undefined {
  try {
    const value = JSON.parse(text) as Owner;
    return typeof value === 'object' && value !== null && typeof value.run_id === 'string' && typeof value.pid === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What generation file `path` says, or undefined when it is gone. Only a regular file is read (a FIFO would
 * block, a device never end); one that exists but cannot be read (a directory, another user's file) still
 * stands as its generation, an owner that says nothing of itself, judged by its mtime alone: passed over, its
 * number would be created again, forever.
 */
function readGeneration(path: string): { owner: Owner | undefined; touchedMs: number } | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    // Removed as an older generation between the listing and the read.
    return undefined;
  }
  if (!stats.isFile()) return { owner: undefined, touchedMs: stats.mtimeMs };
  try {
    return { owner: parseOwner(readFileSync(path, 'utf8')), touchedMs: stats.mtimeMs };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : { owner: undefined, touchedMs: stats.mtimeMs };
  }
}

function highest(dir: string, name: string): Generation | undefined {
  for (const n of generations(dir, name)) {
    const path = join(dir, `${name}.${n}`);
    const read = readGeneration(path);
    if (read) return { n, path, ...read };
  }
  return undefined;
}

/** Whether the owner is provably gone: same boot and PID namespace as this process, and its process is not running. */
function provablyDead(owner: Owner): boolean {
  if (owner.pidns === undefined || owner.boot === undefined) return false;
  const self = ownerOf(owner.run_id);
  if (owner.pidns !== self.pidns || owner.boot !== self.boot || owner.host !== self.host) return false;
  return !runProcessAlive(owner.pid, owner.pid_start);
}

function judge(generation: Generation | undefined, nowMs: number): Liveness {
  if (!generation || generation.owner?.released) return { state: 'free' };
  const { owner } = generation;
  // An empty file is a creation in progress: alive while fresh.
  if (owner && provablyDead(owner)) return { state: 'dead', owner };
  return nowMs - generation.touchedMs <= STALE_MS ? { state: 'live', owner } : { state: 'dead', owner };
}

/** Whether lock `name` is held by a live owner, and by whom. Never throws. */
export function lockLiveness(dir: string, name: string, nowMs = Date.now()): Liveness {
  return judge(highest(dir, name), nowMs);
}

/** A lock this process owns: refreshed until released; `lost` aborts when another process took it over. */
export class Lease {
  private timer: NodeJS.Timeout | undefined;
  private readonly lostController = new AbortController();

  constructor(
    private readonly dir: string,
    readonly name: string,
    private readonly generation: number,
    private readonly owner: Owner,
  ) {
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  private get path(): string {
    return join(this.dir, `${this.name}.${this.generation}`);
  }

  /** Touches the lock; notices a higher generation (we were judged dead) or a removed file. */
  refresh(): void {
    try {
      const now = new Date();
      utimesSync(this.path, now, now);
      if ((generations(this.dir, this.name)[0] ?? 0) > this.generation) this.lose();
    } catch {
      this.lose();
    }
  }

  /**
   * Whether this process still owns the lock, read now rather than at the last refresh: asked before each
   * request leaves, since a process continued after a stop runs what was due before its refresh timer.
   */
  held(): boolean {
    if (this.lostController.signal.aborted) return false;
    // Two looks, not a listing (a directory of many locks, read before every request): a takeover creates
    // the generation right above ours (one above the highest it saw, and ours is the highest), and a lock
    // whose file is gone is no longer ours.
    if (existsSync(join(this.dir, `${this.name}.${this.generation + 1}`)) || !existsSync(this.path)) this.lose();
    return !this.lostController.signal.aborted;
  }

  private lose(): void {
    if (!this.lostController.signal.aborted) this.lostController.abort();
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Marks the lock released: the next process takes it at once. The file stays (see the protocol above). */
  release(): void {
    this.stop();
    if (this.lostController.signal.aborted) return;
    try {
      writeFileSync(this.path, JSON.stringify({ ...this.owner, released: true }), { mode: 0o600 });
    } catch {
      // The directory is gone: nobody can be waiting on it.
    }
  }
}

/** Creates generation `n` of `name` holding `owner`; false when it exists. */
function create(dir: string, name: string, n: number, owner: Owner): boolean {
  let fd: number;
  try {
    fd = openSync(join(dir, `${name}.${n}`), 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * One attempt to own lock `name` in `dir`: the lease, or the liveness of the lock that stands in the way.
 * Throws only when the directory cannot be written.
 */
export function tryAcquire(dir: string, name: string, owner: Owner): Lease | Liveness {
  makeDirs(dir, 0o700);
  for (;;) {
    const current = highest(dir, name);
    const liveness = judge(current, Date.now());
    if (liveness.state === 'live') return liveness;
    const n = (current?.n ?? 0) + 1;
    if (!create(dir, name, n, owner)) continue;
    const numbers = generations(dir, name);
    if ((numbers[0] ?? 0) > n) {
      // Another process made a higher generation: it owns the lock; ours was made on an old view.
      try {
        unlinkSync(join(dir, `${name}.${n}`));
      } catch {
        // Already cleaned up by the winner.
      }
      continue;
    }
    for (const older of numbers) {
      if (older < n) {
        try {
          unlinkSync(join(dir, `${name}.${older}`));
        } catch {
          // Another process removed it first.
        }
      }
    }
    return new Lease(dir, name, n, owner);
  }
}

/** Removes released locks last touched before `beforeMs` (retention): no process waits that long on a view. */
export function pruneLocks(dir: string, beforeMs: number): void {
  for (const entry of listDir(dir)) {
    const path = join(dir, entry);
    try {
      // A lock touched within the day stays whatever it says: its time, not its content, decides. Every
      // run leaves one, so a day of runs is read by its times alone.
      if (statSync(path).mtimeMs >= beforeMs) continue;
      const read = readGeneration(path);
      if (!read || read.touchedMs >= beforeMs) continue;
      if (read.owner?.released) unlinkSync(path);
    } catch {
      // Gone, or not ours to read.
    }
  }
}
