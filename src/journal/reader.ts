// Reads a run journal back into batch outcomes (docs/behaviour.md#journal). Pure and forgiving: a journal is read
// after a crash, a kill or a full disk, so a torn last line, a garbage line or a record that makes no sense
// is skipped, never thrown at the user.
import { refusal, withRecipientCount, type BatchResult } from '../client/send-batches.js';
import { notSentAfter, stopReasons } from '../client/stop-reasons.js';
import { isEndRecord, JOURNAL_FORMAT, type EndRecord, type HeaderRecord, type OutcomeRecord } from './records.js';
import { counted } from '../counted.js';

export interface PlanTotals {
  recipients: number;
  batches: number;
}

/**
 * A journal whose batch records fall short of the plan it declared: it was cut short (a kill, a full disk)
 * while the plan was written. Its results are only what was found, so it must never be read as a smaller run.
 */
export interface IncompletePlan {
  /** What the header (or plan record) declared; absent when the run never learnt its totals. */
  declared?: PlanTotals;
  /** What the batch records hold. */
  found: PlanTotals;
  /** The batch numbers missing below the declared count, as ranges (`3-999`), at most a few. */
  missing: string[];
  /** In words, for `runs`, `runs show` and the refusal to resend. */
  reason: string;
}

export interface JournalRun {
  header?: HeaderRecord;
  end?: EndRecord;
  /** Every batch in order, with its client IDs and the outcome its recorded attempts imply. */
  results: BatchResult[];
  /** Lines that were skipped (torn or not a record). */
  skipped: number;
  /** Set when the journal holds less than its plan: see {@link IncompletePlan}. */
  incomplete?: IncompletePlan;
}

/** Whether a text (its first line is enough) is a pushctl journal. */
export function looksLikeJournal(start: string): boolean {
  return /^\uFEFF?\{"t":"header","format":"pushctl-journal"/.test(start);
}

interface Batch {
  /** The batch's client IDs, when they are collected; else only their number. */
  ids: string[] | undefined;
  count: number;
  attempts: Map<number, OutcomeRecord | undefined>;
  /** The variant the batch carried (a tag, or null for the base message); undefined in a run without variants. */
  lang?: string | null;
}

/**
 * Which batches' client IDs to keep: all, none (counts only: a journal of ten million recipients is listed
 * in little memory), or those of the given batch numbers.
 */
export type CollectIds = boolean | ReadonlySet<number>;

/**
 * Reads a journal line by line, keeping per batch its outcome records and, where asked, its client IDs: the
 * memory a read needs is what it returns, not the size of the file.
 */
export class JournalAccumulator {
  private skipped = 0;
  private header: HeaderRecord | undefined;
  private plan: PlanTotals | undefined;
  private end: EndRecord | undefined;
  private readonly batches = new Map<number, Batch>();
  // Batch numbers that have a batch record, and how many IDs those records hold.
  private readonly planned = new Set<number>();
  private plannedIds = 0;
  private readonly seen = new Set<string>();

  /**
   * `onIds` sees each batch record's client IDs as they are read (those the record adds: an ID already listed
   * is not), whatever `collect` keeps: a digest of a run's whole audience needs no copy of it.
   */
  constructor(
    private readonly collect: CollectIds = true,
    private readonly onIds?: (ids: readonly string[]) => void,
  ) {}

  private batchOf(b: number): Batch {
    let batch = this.batches.get(b);
    if (!batch) this.batches.set(b, (batch = { ids: undefined, count: 0, attempts: new Map() }));
    return batch;
  }

  private wants(b: number): boolean {
    return typeof this.collect === 'boolean' ? this.collect : this.collect.has(b);
  }

  /** One line of the journal, without its newline. */
  line(line: string): void {
    const record = parseLine(line);
    if (!record) {
      if (line !== '') this.skipped += 1;
      return;
    }
    switch (record.t) {
      case 'header':
        if (!this.header && isHeader(record)) this.header = record;
        else this.skipped += 1;
        break;
      case 'batch':
        this.batchRecord(record);
        break;
      case 'plan':
        if (!this.plan && count(record.recipients) !== undefined && count(record.batches) !== undefined) this.plan = { recipients: record.recipients as number, batches: record.batches as number };
        else this.skipped += 1;
        break;
      case 'start': {
        const b = index(record.b);
        const a = index(record.a);
        if (b !== undefined && a !== undefined && !this.batchOf(b).attempts.has(a)) this.batchOf(b).attempts.set(a, undefined);
        break;
      }
      case 'outcome': {
        const b = index(record.b);
        const a = index(record.a);
        if (b !== undefined && a !== undefined && isOutcome(record) && written(record, this.batches.get(b)?.attempts.has(a) === true)) this.batchOf(b).attempts.set(a, record);
        else this.skipped += 1;
        break;
      }
      case 'end':
        if (isEndRecord(record)) this.end = record;
        break;
      default:
        this.skipped += 1;
    }
  }

  private batchRecord(record: Loose): void {
    const b = index(record.b);
    if (b === undefined || !Array.isArray(record.ids)) return;
    if (this.planned.has(b)) {
      this.skipped += 1;
      return;
    }
    this.planned.add(b);
    const batch = this.batchOf(b);
    // An ID belongs to the first batch that lists it, so no ID can stand under two outcomes. Across batches
    // that is checked where every ID is kept anyway; a read for counts alone (which would have to hold every
    // ID to check it) trusts the writer, which never repeats one.
    const seen = this.collect === true ? this.seen : new Set<string>();
    const ids: string[] = [];
    for (const id of record.ids) {
      if (typeof id === 'string' && !seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
    batch.count = ids.length;
    if (typeof record.lang === 'string' || record.lang === null) batch.lang = record.lang;
    if (this.wants(b)) batch.ids = ids;
    this.onIds?.(ids);
    this.plannedIds += ids.length;
  }

  /** A torn last line (its write was cut short): not a record. */
  torn(): void {
    this.skipped += 1;
  }

  finish(): JournalRun {
    const { header, end } = this;
    const declared = header ? declaredPlan(header, this.plan) : undefined;
    const incomplete = header ? checkPlan(declared, this.planned, this.plannedIds, typeof end?.input_stopped === 'string' ? end.input_stopped : undefined) : undefined;
    // The batches the plan declared, and any other a record names (sparse: a garbage number costs one entry).
    const numbers = new Set<number>(this.batches.keys());
    if (!incomplete && declared) for (let b = 0; b < Math.min(declared.batches, 1_000_000); b++) numbers.add(b);
    const sorted = [...numbers].sort((x, y) => x - y);
    // Two passes: why the unfinished batches stopped (an app's refusal, a signal) is known from all of them.
    const stops = stopReasons(sorted.map((b) => settleBatch(b, this.batches.get(b))), end?.interrupted === true);
    const results = sorted.map((b) => settleBatch(b, this.batches.get(b), stops));
    return { ...(header ? { header } : {}), ...(end ? { end } : {}), results, skipped: this.skipped, ...(incomplete ? { incomplete } : {}) };
  }
}

export function readJournal(text: string, collect: CollectIds = true): JournalRun {
  const lines = text.split('\n');
  const reader = new JournalAccumulator(collect);
  // Everything after the last newline is a line whose write was cut short: ignore it.
  const torn = lines.pop() ?? '';
  for (const line of lines) reader.line(line);
  if (torn !== '') reader.torn();
  return reader.finish();
}

/** The totals the header declares, else those of a plan record (a plan written as its input was read). */
function declaredPlan(header: HeaderRecord, plan: PlanTotals | undefined): PlanTotals | undefined {
  const recipients = count(header.recipients);
  const batches = count(header.batches);
  if (recipients !== undefined && batches !== undefined) return { recipients, batches };
  return plan;
}

/**
 * Whether the batch records hold the whole plan: every batch below the declared count recorded, and as many
 * IDs as declared. Anything less is a journal cut short, and says what is missing.
 */
function checkPlan(declared: PlanTotals | undefined, planned: ReadonlySet<number>, plannedIds: number, inputStopped: string | undefined): IncompletePlan | undefined {
  const found = { recipients: plannedIds, batches: planned.size };
  if (!declared) {
    const why = inputStopped !== undefined ? `its client-ID input was read no further (${inputStopped})` : 'the run was stopped while its recipients were still being read';
    return { found, missing: [], reason: `${why}: ${counted(found.batches, 'batch')} (${counted(found.recipients, 'recipient')}) were planned, and the total was never known` };
  }
  const missing: string[] = [];
  let missingCount = 0;
  for (let b = 0; b < declared.batches; b++) {
    if (planned.has(b)) continue;
    missingCount += 1;
    let end = b;
    while (end + 1 < declared.batches && !planned.has(end + 1)) end += 1;
    if (missing.length < 5) missing.push(end === b ? `${b}` : `${b}-${end}`);
    missingCount += end - b;
    b = end;
  }
  if (missingCount === 0 && plannedIds === declared.recipients) return undefined;
  const what = missingCount > 0 ? `${missingCount} of ${declared.batches} batch records missing (batches ${missing.join(', ')}${missing.length === 5 ? ', …' : ''})` : `its batch records hold ${plannedIds} of ${declared.recipients} recipients`;
  return {
    declared,
    found,
    missing,
    reason: `the journal was cut short while its plan was written: ${what}; it declared ${counted(declared.recipients, 'recipient')} in ${counted(declared.batches, 'batch')} and holds ${plannedIds}`,
  };
}

/** A count a header or plan record declares: a whole number, or undefined. */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The outcome a batch's recorded attempts imply: docs/behaviour.md#journal, "Read back the same way everywhere". */
function settleBatch(index: number, batch: Batch | undefined, stops?: StopReasons): BatchResult {
  // The count holds when the IDs were not collected.
  const settled = settleAttempts(index, batch, stops);
  if (batch?.lang !== undefined) settled.variant = batch.lang;
  return withRecipientCount(settled, batch?.count ?? 0);
}

/** Why a run's unfinished batches stopped (stop-reasons.ts); without it, only the facts (a first pass). */
type StopReasons = ReturnType<typeof stopReasons>;

function settleAttempts(index: number, batch: Batch | undefined, stops: StopReasons | undefined): BatchResult {
  const attempts = batch ? [...batch.attempts.keys()].sort((x, y) => x - y) : [];
  const base = { index, clientIds: batch?.ids ?? [], attempts: attempts.length };
  if (!batch || attempts.length === 0) return { ...base, status: 'not_sent', reason: stops?.beforeStart ?? 'never started' };
  const outcomes = attempts.map((a) => batch.attempts.get(a));
  if (outcomes.some((o) => o === undefined)) {
    return { ...base, status: 'in_doubt', reason: 'a request was started but its answer was never recorded (the run was stopped or killed)' };
  }
  const recorded = outcomes as OutcomeRecord[];
  const last = recorded[recorded.length - 1]!;
  const service = last.code === undefined ? {} : { code: last.code, message: last.message ?? '' };
  switch (last.kind) {
    case 'accepted':
      return { ...base, status: 'accepted', messageId: last.message_id ?? '' };
    case 'rejected':
      return { ...base, ...refusal(last.code ?? 0, last.message ?? '') };
    case 'in_doubt':
      return { ...base, status: 'in_doubt', reason: last.reason ?? 'the answer did not say whether it was delivered' };
    case 'retryable': {
      const earlier = recorded.find((o) => o.kind === 'in_doubt');
      if (earlier) return { ...base, status: 'in_doubt', reason: `an earlier attempt may have been delivered (${earlier.reason ?? 'no answer'}); last attempt: ${last.reason ?? ''}` };
      // Every attempt came back not processed; an accepted or rejected one in between cannot be followed by
      // another attempt, so the last word is the batch's, said as the sender said it (a retry that was due and
      // never came was stopped).
      const stopped = last.retry === true ? stops?.beforeRetry : undefined;
      return { ...base, status: 'not_sent', reason: notSentAfter(last.reason ?? 'not processed', recorded.length, stopped), ...service };
    }
  }
}

type Loose = Record<string, unknown> & { t?: unknown };

function parseLine(line: string): Loose | undefined {
  if (line === '' || line.charCodeAt(0) !== 0x7b) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
  } catch {
    return undefined;
  }
}

/** A batch or attempt number: a small whole number (a garbage record must not make a huge array). */
function index(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1_000_000 ? value : undefined;
}

// A record read back is trusted as far as these checks go: a header of our format, an outcome of a known kind,
// an end with its exit code and summary. The fields each reader uses beyond them are checked where they are read.
function isHeader(record: Loose): record is Loose & HeaderRecord {
  return record.format === JOURNAL_FORMAT;
}

/**
 * Whether pushctl could have written this outcome (docs/behaviour.md#trust): an answer that says the request went
 * out (accepted, rejected, in doubt) follows its attempt's start record, written before the wire, and an
 * acceptance carries the service's message_id. Anything else proves nothing of delivery and is skipped: the
 * attempt then reads as never started, or started with no answer (in doubt), never as delivered.
 */
function written(record: OutcomeRecord, started: boolean): boolean {
  if (record.kind === 'retryable') return true;
  if (!started) return false;
  return record.kind !== 'accepted' || (typeof record.message_id === 'string' && record.message_id !== '');
}

function isOutcome(record: Loose): record is Loose & OutcomeRecord {
  // Journals written before 0.3 call an in-doubt outcome `ambiguous`: read as the word of today.
  if (record.kind === 'ambiguous') record.kind = 'in_doubt';
  return record.kind === 'accepted' || record.kind === 'rejected' || record.kind === 'in_doubt' || record.kind === 'retryable';
}
