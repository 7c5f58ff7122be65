// The journal of one send: what send.ts calls at each step of a run. It turns the delivery engine's
// callbacks into records and knows nothing of how they are sent.
import { resolve } from 'node:path';
import type { ClientIdSource } from '../message/recipients.js';
import type { DeliverySummary } from '../client/report.js';
import type { AttemptEvent } from '../client/send-batches.js';
import { usageError } from '../errors.js';
import { JOURNAL_FORMAT, type OutcomeRecord } from './records.js';
import { journalPath, newRunId, pruneRuns, runsDir } from './runs-dir.js';
import { JournalWriter, type Scrub } from './writer.js';

export interface RunJournalOptions {
  /** `--journal <path>`; else a new file in the runs directory. */
  path?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  filter: Scrub;
  version: string;
  appId: string;
  host: string;
  dryRun: boolean;
  argv: readonly string[];
  /** The validated message; its client IDs are left out (the batch records hold them). */
  message: object;
  clientIds: ClientIdSource | undefined;
  batches: readonly (readonly [number, number])[];
  now?: Date;
}

export class RunJournal {
  private constructor(
    readonly runId: string,
    private readonly writer: JournalWriter,
    private readonly dir: string | undefined,
  ) {}

  /**
   * Creates the journal and writes the header and every batch's client IDs, before anything is sent: a
   * batch never started is then still listed after a kill. Throws a usage error when the file cannot be made.
   */
  static start(options: RunJournalOptions): RunJournal {
    const now = options.now ?? new Date();
    const runId = newRunId(now);
    const dir = options.path === undefined ? runsDir(options.env) : undefined;
    const path = options.path !== undefined ? resolve(options.cwd, options.path) : journalPath(dir!, runId);
    let writer: JournalWriter;
    try {
      writer = new JournalWriter(path, options.filter);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      const hint = code === 'EEXIST' ? 'a journal is never overwritten: give --journal a new path' : 'give --journal a writable path, set PUSHCTL_JOURNAL_DIR, or pass --no-journal (then a kill loses the record)';
      throw usageError(`cannot create the run journal ${path} (${code})`, hint);
    }
    const { clientIds, batches } = options;
    writer.write({
      t: 'header',
      format: JOURNAL_FORMAT,
      v: 1,
      run_id: runId,
      started_at: now.toISOString(),
      version: options.version,
      pid: process.pid,
      app_id: options.appId,
      host: options.host,
      dry_run: options.dryRun,
      argv: [...options.argv],
      message: withoutClientIds(options.message),
      recipients: clientIds?.length ?? 0,
      batches: batches.length,
    });
    batches.forEach(([start, end], b) => {
      if (clientIds?.jsonBytes && end > start) writer.writeBatch(b, clientIds.jsonBytes(start, end));
      else writer.write({ t: 'batch', b, ids: clientIds && end > start ? clientIds.slice(start, end) : [] });
    });
    return new RunJournal(runId, writer, dir);
  }

  get path(): string {
    return this.writer.path;
  }

  attemptStart(b: number, a: number): void {
    this.writer.write({ t: 'start', b, a });
  }

  attempt(event: AttemptEvent): void {
    const { outcome } = event;
    const record: OutcomeRecord = { t: 'outcome', b: event.batch, a: event.attempt, kind: outcome.kind };
    if (outcome.kind === 'accepted') record.message_id = outcome.messageId;
    if (outcome.kind === 'rejected' || (outcome.kind === 'retryable' && outcome.code !== undefined)) {
      record.code = outcome.code!;
      record.message = outcome.message ?? '';
    }
    if (outcome.kind === 'ambiguous' || outcome.kind === 'retryable') record.reason = outcome.reason;
    this.writer.write(record);
  }

  /** The closing record; then the file is synced and closed, and old runs are pruned. */
  end(summary: DeliverySummary, exitCode: number, interrupted: boolean): void {
    this.writer.write({ t: 'end', ended_at: new Date().toISOString(), interrupted, exit_code: exitCode, summary });
    this.writer.close();
    if (this.dir !== undefined) pruneRuns(this.dir, Date.now());
  }

  /** Closes without a closing record (an unexpected error): the journal then reads as an unfinished run. */
  abandon(): void {
    this.writer.close();
  }
}

function withoutClientIds(message: object): object {
  const condition = (message as { condition?: { client_ids?: unknown } }).condition;
  if (!condition || !('client_ids' in condition)) return message;
  const { client_ids: _ids, ...rest } = condition;
  return { ...message, condition: rest };
}


