// One reader of a run's journal, one answer: `pushctl runs`, `runs show`, `resend` and `--once` all ask here
// what a run came to. A closed run is listed from its first and last lines; any other is read as a stream,
// so its state and counts are what its records say, and a journal cut short reads as `incomplete`.
import { dirname, join } from 'node:path';
import { serviceRefused, summarizeBatches, type DeliverySummary } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';
import { ExitCode, usageError } from '../errors.js';
import type { CollectIds, IncompletePlan } from './reader.js';
import { headerProblem, isEndRecord, type EndRecord, type HeaderRecord } from './records.js';
import { runProcessAlive } from './process-start.js';
import { journalHeader, lastLine, listRunNames } from './runs-dir.js';
import { JournalFileError, readJournalFile } from './journal-file.js';
import { planProblem } from './plan-agreement.js';
import { lockLiveness, type Liveness } from './ownership.js';

/**
 * What a run came to (docs/behaviour.md#run-states). Closed runs: sent (every batch accepted), partly_sent,
 * rejected (the service refused every batch), not_sent (nothing reached the service), in_doubt (nothing
 * certainly delivered, some maybe), interrupted (stopped by a signal, some left). Unclosed: running (its
 * lock is alive), killed (its lock is dead). incomplete: its plan is not whole.
 */
export const RUN_STATES = ['sent', 'partly_sent', 'rejected', 'not_sent', 'in_doubt', 'interrupted', 'killed', 'incomplete', 'running'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** A run as its journal tells it: what `runs`, `runs show`, `resend` and `--once` read. */
export interface RunView {
  path: string;
  header: HeaderRecord;
  end?: EndRecord;
  state: RunState;
  incomplete?: IncompletePlan;
  summary: DeliverySummary;
  /** Every batch, with the client IDs asked for. */
  results: BatchResult[];
}

/** A run for the list: a closed one is read from its first and last lines, without its batches. */
export type RunHead = Omit<RunView, 'results'>;

/** A state in words, for people: `partly sent`. */
export const stateWords = (state: RunState | 'skipped') => state.replace('_', ' ');

/**
 * What a closed run's counts say. `refused`: the service said no to some batch (serviceRefused), so a run that
 * delivered nothing and left nothing in doubt was `rejected`; otherwise nothing reached the service. A batch the
 * service refused for the app is counted `not_sent` (it is sent again), which the counts alone cannot tell.
 */
export function closedState(summary: DeliverySummary, interrupted: boolean, refused = summary.batches.rejected > 0): RunState {
  const b = summary.batches;
  if (b.accepted === b.total) return 'sent';
  if (interrupted) return 'interrupted';
  if (b.accepted > 0) return 'partly_sent';
  if (b.in_doubt > 0) return 'in_doubt';
  return refused ? 'rejected' : 'not_sent';
}

/**
 * Whether the run's process still owns it: its family lock alive and held by this run (docs/behaviour.md#ownership).
 * A journal of pushctl 0.2 names no lock: its pid and start time decide.
 */
export function runAlive(header: HeaderRecord, path: string, locks: string): boolean {
  if (typeof header.lock !== 'string') return runProcessAlive(header.pid, header.pid_start);
  const liveness = familyLiveness(header.lock, path, locks);
  return liveness.state === 'live' && (liveness.owner === undefined || liveness.owner.run_id === header.run_id);
}

/**
 * Whether lock `name` of the run journaled at `path` is held: in the reader's locks directory, or beside the
 * journal, where the process that wrote it into its own journal directory keeps it (docs/behaviour.md#ownership).
 */
function familyLiveness(name: string, path: string, locks: string): Liveness {
  const here = lockLiveness(locks, name);
  if (here.state === 'live') return here;
  const beside = join(dirname(path), '.locks');
  return beside === locks ? here : lockLiveness(beside, name);
}

/**
 * `results`: what the records say, when they were read; else the closing record's own counts (checked to add
 * up), and its exit code for whether the service refused (docs/behaviour.md#exit-codes: 4).
 */
function stateOf(header: HeaderRecord, path: string, end: EndRecord | undefined, incomplete: IncompletePlan | undefined, locks: string, results?: readonly BatchResult[]): RunState {
  // A run that closed before reading all of its input (an invalid line, a second Ctrl-C) is no whole run.
  if (incomplete && (end || !runAlive(header, path, locks))) return 'incomplete';
  if (end) {
    if (results) return closedState(summarizeBatches(results), end.interrupted === true, serviceRefused(results));
    return closedState(end.summary, end.interrupted === true, end.summary.batches.rejected > 0 || end.exit_code === ExitCode.rejected);
  }
  return runAlive(header, path, locks) ? 'running' : 'killed';
}

/** The journal error as the user reads it: the file, and what to give instead. */
function unreadable(path: string, error: unknown): Error {
  const reason = error instanceof JournalFileError ? error.message : `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`;
  return usageError(reason, 'give a run id from `pushctl runs` or a journal file of yours');
}

/**
 * Reads a journal (streamed: see journal-file.ts), with the client IDs of the batches `collect` names.
 * Throws a usage error naming the file when it cannot be read, is not a regular file of this user, or is
 * not a journal.
 */
export function readRun(path: string, locks: string, collect: CollectIds = true): RunView {
  let run;
  try {
    run = readJournalFile(path, collect);
  } catch (error) {
    throw unreadable(path, error);
  }
  if (!run.header) throw usageError(`${path} is not a pushctl run journal (no header record)`, 'give a run id from `pushctl runs` or a file that pushctl send wrote with --journal');
  const problem = headerProblem(run.header) ?? planProblem(run.header, run.results);
  if (problem) throw usageError(`${path} cannot be read as a run: ${problem}`, 'give a run id from `pushctl runs` or a journal as pushctl wrote it');
  // The records say what happened; the closing record's counts are a copy for the list, which an edit may change.
  const summary = summarizeBatches(run.results);
  return {
    path,
    header: run.header,
    ...(run.end ? { end: run.end } : {}),
    state: stateOf(run.header, path, run.end, run.incomplete, locks, run.results),
    ...(run.incomplete ? { incomplete: run.incomplete } : {}),
    summary,
    results: run.results,
  };
}

/**
 * A run with the client IDs of the batches a resend may send (in doubt or not sent) and none other: two
 * passes over the file, the first for the outcomes, so a run of ten million recipients mostly sent costs
 * the memory of what it left.
 */
export function readRunLeft(path: string, locks: string): RunView {
  const counted = readRun(path, locks, false);
  const left = new Set(counted.results.filter((r) => r.status === 'in_doubt' || r.status === 'not_sent').map((r) => r.index));
  return left.size === 0 ? counted : readRun(path, locks, left);
}

/**
 * A run for the list: a closed run from its first and last lines alone (the closing record holds its
 * summary); any other read for its counts. Undefined for a file that is not a journal of this user.
 */
export function readRunHead(path: string, locks: string): RunHead | undefined {
  try {
    const header = journalHeader(path);
    if (!header) return undefined;
    const end = closingRecord(path);
    // A run that closed without reading all of its input is read whole, to say what it planned; so is one whose
    // closing counts do not add up to its plan (an edited journal is data: its records say what happened), and
    // one that counted batches rejected: an earlier pushctl counted a refusal of the app so, which its records
    // now read as not sent (client/batch-result.ts, refusal), and the list says what `runs show` and `resend` read.
    if (end && end.input_stopped === undefined && endAddsUp(end, header) && end.summary.batches.rejected === 0) return { path, header, end, state: stateOf(header, path, end, undefined, locks), summary: end.summary };
    return readRun(path, locks, false);
  } catch {
    return undefined;
  }
}

const OUTCOMES = ['accepted', 'rejected', 'in_doubt', 'not_sent'] as const;

/** Whether a closing record's counts are whole numbers that add up, to the totals its header planned. */
function endAddsUp(end: EndRecord, header: HeaderRecord): boolean {
  const planned = { batches: header.batches, recipients: header.recipients };
  return (['batches', 'recipients'] as const).every((unit) => {
    const counts = end.summary[unit] as Record<string, unknown> | undefined;
    if (typeof counts !== 'object' || counts === null) return false;
    const values = [counts.total, ...OUTCOMES.map((o) => counts[o])];
    if (!values.every((v) => Number.isSafeInteger(v) && (v as number) >= 0)) return false;
    const total = counts.total as number;
    if (OUTCOMES.reduce((n, o) => n + (counts[o] as number), 0) !== total) return false;
    return typeof planned[unit] !== 'number' || planned[unit] === total;
  });
}

/** The closing record on the last line, if the run closed; the whole-file reader finds the same one. */
function closingRecord(path: string): EndRecord | undefined {
  try {
    const last = JSON.parse(lastLine(path)) as { t?: unknown };
    return last.t === 'end' && isEndRecord(last) ? last : undefined;
  } catch {
    return undefined;
  }
}

type Headers = ReadonlyMap<string, { path: string; header: HeaderRecord }>;

/**
 * The last look through directories' headers, by the journals they held: one command looks a family up more
 * than once (its root to lock it, then its members), and a header never changes once written.
 */
let lastHeaders: { names: string; byId: Headers } | undefined;

/** The journals of `dirs` by run id, read by their first line only; the newest where two name one run. */
function headersIn(dirs: readonly string[]): Headers {
  const listed = [...new Set(dirs)].map((dir) => ({ dir, runs: listRunNames(dir) }));
  const names = listed.map(({ dir, runs }) => `${dir}\n${runs.map((run) => run.id).join(' ')}`).join('\n');
  if (lastHeaders?.names === names) return lastHeaders.byId;
  const byId = new Map<string, { path: string; header: HeaderRecord }>();
  let whole = true;
  for (const { runs } of listed) {
    for (const run of runs) {
      const header = journalHeader(run.file ?? run.path);
      if (header === undefined) whole = false;
      else if (!byId.has(header.run_id)) byId.set(header.run_id, { path: run.path, header });
    }
  }
  // A journal whose header is not there yet (its run is starting) is looked for again next time.
  lastHeaders = whole ? { names, byId } : undefined;
  return byId;
}

/** The runs that resent run `runId` (their header names it as parent), oldest first. */
export function resendsOf(dirs: readonly string[], runId: string): string[] {
  return [...headersIn(dirs).values()]
    .filter(({ header }) => header.parent === runId)
    .map(({ header }) => header.run_id)
    .sort();
}

/**
 * The `--once` run sent afresh in place of run `runId`, cut short while planning (its header names it as
 * `replaces`); the newest when several did.
 */
export function replacementOf(dirs: readonly string[], runId: string): string | undefined {
  return [...headersIn(dirs).values()]
    .filter(({ header }) => header.replaces === runId)
    .map(({ header }) => header.run_id)
    .sort()
    .pop();
}

/** The first run of `run`'s family: its oldest ancestor found in `dirs`. */
export function familyRoot(dirs: readonly string[], run: Pick<RunView, 'header'>): string {
  return rootIn(headersIn(dirs), run.header);
}

function rootIn(byId: ReadonlyMap<string, { header: HeaderRecord }>, header: HeaderRecord): string {
  let root = header.run_id;
  const seen = new Set([root]);
  for (let parent = header.parent; parent !== undefined && byId.has(parent) && !seen.has(parent); parent = byId.get(parent)!.header.parent) {
    root = parent;
    seen.add(parent);
  }
  return root;
}

/**
 * A run and every run that resent it, and those that resent them, oldest first: one announcement to one
 * audience, sent in several runs. `run` may be any member; its first ancestor found is the start.
 */
export function runFamily(dirs: readonly string[], run: RunHead): string[] {
  const byId = new Map(headersIn(dirs));
  byId.set(run.header.run_id, { path: run.path, header: run.header });
  const root = rootIn(byId, run.header);
  return [byId.get(root)!, ...descendants(byId, root)].sort(byStart).map(({ path }) => path);
}

/** The runs that resent run `runId`, and those that resent them, in the order found. */
function descendants(byId: ReadonlyMap<string, { path: string; header: HeaderRecord }>, runId: string): { path: string; header: HeaderRecord }[] {
  const ids = [runId];
  for (let i = 0; i < ids.length; i++) {
    for (const { header } of byId.values()) if (header.parent === ids[i] && !ids.includes(header.run_id)) ids.push(header.run_id);
  }
  return ids.slice(1).map((id) => byId.get(id)!);
}

/** In the order they started: a later run's word on a recipient replaces an earlier one's. */
const byStart = (a: { header: HeaderRecord }, b: { header: HeaderRecord }) => (a.header.started_at < b.header.started_at ? -1 : a.header.started_at > b.header.started_at ? 1 : 0);

/** A run id or host of a lock file, printed only when it is plain: the file is anyone's to write. */
const plain = (text: string | undefined): string | undefined => (text !== undefined && /^[0-9A-Za-z][0-9A-Za-z.-]{0,63}$/.test(text) ? text : undefined);

/**
 * Refuses to read what run `runId` left while a process owns its family (docs/behaviour.md#ownership): the run
 * or a resend of it still sending has batches not started yet, which read as not sent but are about to go.
 */
function refuseOwned(header: HeaderRecord, path: string, runId: string, locks: string): void {
  if (typeof header.lock !== 'string') return;
  const liveness = familyLiveness(header.lock, path, locks);
  if (liveness.state !== 'live') return;
  const owner = liveness.owner;
  const ownerRun = plain(owner?.run_id);
  const host = plain(owner?.host);
  const who = owner && ownerRun ? `run ${ownerRun} (pid ${owner.pid}${host ? ` on ${host}` : ''})` : 'another pushctl process';
  throw usageError(
    `run ${plain(runId) ?? 'of the client-ID input'} is still being sent by ${who}: what it leaves is not known until it ends`,
    `wait for it to end (pushctl runs shows it), then give it again; or pushctl resend ${plain(runId) ?? '<run>'}, which waits for it`,
  );
}

/**
 * Each client ID's newest word among the runs that resent run `runId` (and the runs that resent those), oldest
 * first: what they sent since. A journal given as `--client-ids-file` yields what its run left that no resend
 * of it has sent since, as `pushctl resend` would (docs/behaviour.md#resend). Reads only those runs, whole.
 */
export function laterWords(dirs: readonly string[], runId: string, locks: string): Map<string, BatchResult['status']> {
  const byId = headersIn(dirs);
  const run = byId.get(runId);
  const later = descendants(byId, runId);
  for (const member of [...(run ? [run] : []), ...later]) refuseOwned(member.header, member.path, runId, locks);
  const words = new Map<string, BatchResult['status']>();
  for (const { path } of later.sort(byStart)) {
    for (const r of readRun(path, locks).results) for (const id of r.clientIds) words.set(id, r.status);
  }
  return words;
}
