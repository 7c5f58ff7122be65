// The journal of one send: what send.ts calls at each step of a run. It turns the delivery engine's
// callbacks into records and knows nothing of how they are sent.
import { accessSync, constants, existsSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { withoutClientIds, type ClientIdSource } from '../message/recipients.js';
import type { BatchPlan } from '../client/batches.js';
import type { DeliverySummary } from '../client/report.js';
import type { AttemptEvent } from '../client/send-batches.js';
import { usageError } from '../errors.js';
import { JOURNAL_FORMAT, type EndRecord, type HeaderRecord, type OutcomeRecord } from './records.js';
import { journalPath, newRunId, runsDir } from './runs-dir.js';
import { pruneRuns } from './retention.js';
import { processStartTicks } from './process-start.js';
import { JournalWriter, JournalWriteError, type Scrub } from './writer.js';
import { MAX_LINE } from './journal-file.js';
import { missingDirHint } from '../missing-dir-hint.js';
import { isoTime } from '../iso-time.js';

export interface RunJournalOptions {
  /** `--journal <path>`; else a new file in the runs directory. */
  path?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  filter: Scrub;
  version: string;
  appId: string;
  /** Where the requests go: scheme, host, port and path (never credentials). */
  baseUrl: URL;
  dryRun: boolean;
  argv: readonly string[];
  /** The validated message; its client IDs are left out (the batch records hold them). */
  message: object;
  /** Each variant's message as sent, by tag (docs/behaviour.md#variants); the plan's lanes say which batch carries which. */
  variants?: Record<string, object>;
  clientIds: ClientIdSource | undefined;
  /**
   * The batches. A plan still growing (its recipients are being read) is journaled as it grows: each new
   * batch's record is written as it is planned, before anyone can send it, and a `plan` record closes it.
   */
  plan: BatchPlan;
  /** The client-ID file a growing plan is read from (absolute), for the resend of a run stopped while reading it. */
  input?: string;
  /** `--once <key>` and the fingerprint of message and audience. */
  once?: { key: string; fingerprint: string };
  /** The run this one resends. */
  parent?: string;
  /** The key's run cut short while planning that this `--once` run is sent afresh in place of. */
  replaces?: string;
  /** What the runs it resends left in doubt and it does not send again. */
  inDoubtBefore?: number;
  /** The run id, chosen by whoever claimed the run's ownership first; else a new one. */
  runId?: string;
  /** The lock that owns the run family while this run sends (its liveness is the run's: `running`). */
  lock?: string;
  /** A run of several targets: the run id of its first target, and this target's profile (docs/behaviour.md#targets). */
  targets?: { family: string; profile: string };
  now?: Date;
  /** The random part of run ids (tests make two runs collide with it). */
  random?: () => number;
}

/** A base URL as journals keep it: scheme, host, port and path, never credentials, no trailing slash. */
export function journalBaseUrl(url: URL): string {
  const base = new URL(url.href);
  base.username = '';
  base.password = '';
  return base.href.replace(/\/$/, '');
}

/** How many fresh run ids to try when one is taken (two runs started in the same second). */
const ID_TRIES = 8;

export class RunJournal {
  private constructor(
    readonly runId: string,
    private readonly writer: JournalWriter,
    private readonly dir: string | undefined,
  ) {}

  /**
   * Creates the journal and writes the header and every batch's client IDs, before anything is sent: a
   * batch never started is then still listed after a kill. Throws a usage error when the file cannot be
   * made or the plan cannot be written (then nothing was sent).
   */
  static start(options: RunJournalOptions): RunJournal {
    const now = options.now ?? new Date();
    const dir = options.path === undefined ? runsDir(options.env) : undefined;
    const { runId, writer } =
      dir === undefined
        ? openAt(resolve(options.cwd, options.path!), options.runId ?? newRunId(now, options.random), options.filter, false)
        : options.runId !== undefined
          ? openAt(journalPath(dir, options.runId), options.runId, options.filter)
          : openInDir(dir, now, options.filter, options.random);
    const { clientIds, plan } = options;
    const known = !plan.open;
    const base = new URL(options.baseUrl.href);
    const pidStart = processStartTicks('self');
    const header: HeaderRecord = {
      t: 'header',
      format: JOURNAL_FORMAT,
      v: 1,
      run_id: runId,
      started_at: isoTime(now),
      version: options.version,
      pid: process.pid,
      ...(pidStart !== undefined ? { pid_start: pidStart } : {}),
      app_id: options.appId,
      host: base.host,
      base_url: journalBaseUrl(base),
      dry_run: options.dryRun,
      argv: [...options.argv],
      message: withoutClientIds(options.message),
      ...(options.variants ? { variants: Object.fromEntries(Object.entries(options.variants).map(([tag, message]) => [tag, withoutClientIds(message)])) } : {}),
      recipients: known ? plan.recipients : null,
      batches: known ? plan.ranges.length : null,
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.once ? { once: options.once.key, fingerprint: options.once.fingerprint } : {}),
      ...(options.parent !== undefined ? { parent: options.parent } : {}),
      ...(options.replaces !== undefined ? { replaces: options.replaces } : {}),
      ...(options.inDoubtBefore ? { in_doubt_before: options.inDoubtBefore } : {}),
      ...(options.lock !== undefined ? { lock: options.lock } : {}),
      ...(options.targets ? { targets: options.targets.family, profile: options.targets.profile } : {}),
    };
    const journal = new RunJournal(runId, writer, dir);
    try {
      // A header no reader takes back (journal-file.ts MAX_LINE) would hide the run: its --once key unseen.
      const size = Buffer.byteLength(JSON.stringify(header));
      if (size > MAX_LINE) {
        writer.close();
        unlinkSync(writer.path);
        throw usageError(`the message is too large for the run journal (${Math.ceil(size / 1048576)} MiB with its variants; at most ${MAX_LINE / 1048576} MiB); nothing was sent`, 'shorten the message or send fewer variants in one run');
      }
      writer.write(header);
      journal.writeBatches(clientIds, plan, 0);
    } catch (error) {
      writer.close();
      if (error instanceof JournalWriteError) {
        throw usageError(`cannot write the run journal ${writer.path} (${error.code}) before sending; nothing was sent`, error.hint);
      }
      throw error;
    }
    if (!known) journal.follow(plan, clientIds);
    return journal;
  }

  /**
   * Journals a plan as it grows. Listeners run as the plan grows, before the delivery engine can start the
   * new batches; a record that cannot be written stops the plan, and the engine then starts nothing whose
   * start record cannot be written either (the writer refuses every write after a failure).
   */
  private follow(plan: BatchPlan, clientIds: ClientIdSource | undefined): void {
    let written = plan.ranges.length;
    const unsubscribe = plan.onChange(() => {
      try {
        written = this.writeBatches(clientIds, plan, written);
        if (plan.complete) this.writer.write({ t: 'plan', recipients: plan.recipients, batches: plan.ranges.length });
      } catch (error) {
        if (!(error instanceof JournalWriteError)) throw error;
        plan.stop(error.message);
      }
      if (!plan.open) unsubscribe();
    });
  }

  /** The records of batches `from` on; returns how many batches are journaled. */
  private writeBatches(clientIds: ClientIdSource | undefined, plan: BatchPlan, from: number): number {
    const { ranges } = plan;
    for (let b = from; b < ranges.length; b++) {
      const [start, end] = ranges[b]!;
      // The variant each batch carries (docs/behaviour.md#variants): a resend sends each ID its own again.
      const lane = plan.lanes?.[b];
      if (clientIds?.jsonBytes && end > start) this.writer.writeBatch(b, clientIds.jsonBytes(start, end), lane);
      else this.writer.write({ t: 'batch', b, ids: clientIds && end > start ? clientIds.slice(start, end) : [], ...(lane !== undefined ? { lang: lane } : {}) });
    }
    return ranges.length;
  }

  get path(): string {
    return this.writer.path;
  }

  /** The write that failed, if one did: the run must start no further request. */
  get failure(): JournalWriteError | undefined {
    return this.writer.failure;
  }

  /**
   * Before an attempt's first byte leaves. Throws a JournalWriteError when it cannot be recorded: then don't
   * send. `mayLeave` is asked once the record is down (is the run still ours?): a process that takes the run
   * over reads the journal after owning it, so it either sees this attempt started or made us stop here. When
   * it throws, the attempt is recorded as never sent, and the error goes on.
   */
  attemptStart(b: number, a: number, mayLeave?: () => void): void {
    this.writer.write({ t: 'start', b, a });
    try {
      mayLeave?.();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.quietly(() => this.writer.write({ t: 'outcome', b, a, kind: 'retryable', reason }));
      throw error;
    }
  }

  /** An attempt's outcome, recorded if possible: after a failed write the answer is only in memory (and the report). */
  attempt(event: AttemptEvent): void {
    const { outcome } = event;
    const record: OutcomeRecord = { t: 'outcome', b: event.batch, a: event.attempt, kind: outcome.kind };
    if (outcome.kind === 'accepted') record.message_id = outcome.messageId;
    if (outcome.kind === 'rejected' || (outcome.kind === 'retryable' && outcome.code !== undefined)) {
      record.code = outcome.code!;
      record.message = outcome.message ?? '';
    }
    if (outcome.kind === 'in_doubt' || outcome.kind === 'retryable') record.reason = outcome.reason;
    // A retry was due: a batch with no attempt after this one was stopped before it, which the reader says.
    if (event.retryInMs !== undefined) record.retry = true;
    this.quietly(() => this.writer.write(record));
  }

  /**
   * The closing record; then the file is synced and closed, and old runs are pruned. `inputStopped`: why the
   * client-ID input was read no further, when the plan did not reach its end.
   */
  end(summary: DeliverySummary, exitCode: number, interrupted: boolean, inputStopped?: string): void {
    const record: EndRecord = { t: 'end', ended_at: isoTime(new Date()), interrupted, exit_code: exitCode, summary, ...(inputStopped !== undefined ? { input_stopped: inputStopped } : {}) };
    this.quietly(() => this.writer.write(record));
    this.writer.close();
    if (this.dir !== undefined && !this.writer.failure) pruneRuns(this.dir, Date.now());
  }

  /** Closes without a closing record (an unexpected error): the journal then reads as an unfinished run. */
  abandon(): void {
    this.writer.close();
  }

  /** A write whose failure is already known to the writer (and reported once, by the caller). */
  private quietly(write: () => void): void {
    try {
      write();
    } catch (error) {
      if (!(error instanceof JournalWriteError)) throw error;
    }
  }
}

/** `--journal <path>`: exactly that file, never overwritten. */
/**
 * The journal at `path`. `makeDir` false for a `--journal` path: like `--report`, it names a file, and a
 * directory missing on its way is a mistyped path to refuse, never a folder tree to make unseen.
 */
function openAt(path: string, runId: string, filter: Scrub, makeDir = true): { runId: string; writer: JournalWriter } {
  try {
    return { runId, writer: new JournalWriter(path, filter, makeDir) };
  } catch (error) {
    throw cannotCreate(path, error, (code) =>
      code === 'EEXIST' ? 'a journal is never overwritten: give --journal a new path' : code === 'ENOENT' && !makeDir ? missingDirHint(dirname(path), '--journal') : undefined,
    );
  }
}

/** A new file in the runs directory; a run id already taken there (same second, same random suffix) is replaced by another. */
function openInDir(dir: string, now: Date, filter: Scrub, random?: () => number): { runId: string; writer: JournalWriter } {
  for (let attempt = 1; ; attempt++) {
    const runId = newRunId(now, random);
    const path = journalPath(dir, runId);
    try {
      return { runId, writer: new JournalWriter(path, filter) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < ID_TRIES) continue;
      throw cannotCreate(path, error);
    }
  }
}

/** `hintFor`: the caller's own next step for an error code, when it has one. */
function cannotCreate(path: string, error: unknown, hintFor?: (code: string) => string | undefined) {
  const code = createErrorCode(path, error);
  const hint = hintFor?.(code) ?? 'set PUSHCTL_JOURNAL_DIR to a writable directory, give --journal a writable path, or pass --no-journal (then a kill loses the record)';
  return usageError(`cannot create the run journal ${path} (${code})`, hint);
}

/**
 * The cause in the error's own words, except that creating a missing directory on a read-only file system
 * reports ENOENT: then the nearest existing parent says why (EROFS, EACCES).
 */
export function createErrorCode(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? String(error);
  if (code !== 'ENOENT') return code;
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    if (!existsSync(dir)) continue;
    try {
      accessSync(dir, constants.W_OK);
    } catch (inner) {
      return (inner as NodeJS.ErrnoException).code ?? code;
    }
    break;
  }
  return code;
}
