// One reader of a run's journal, one answer: `pushctl runs`, `runs show`, `resend` and `--once` all ask here
// what a run came to. A closed run is read from its first and last lines; any other is read whole, so its
// state and counts are what its records say, and a journal cut short reads as `incomplete`.
import { readFileSync } from 'node:fs';
import { summarizeBatches, type DeliverySummary } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';
import { usageError } from '../errors.js';
import { readJournal, type IncompletePlan } from './reader.js';
import type { EndRecord, HeaderRecord } from './records.js';
import { runProcessAlive } from './process-start.js';
import { journalHeader, lastLine, listRunFiles } from './runs-dir.js';

/**
 * finished: closed by itself; interrupted: stopped by a signal and closed; running: no closing record and its
 * process alive; killed: no closing record and its process gone; incomplete: its plan is not whole (killed while
 * it was written, or stopped before its input was read to the end).
 */
export type RunState = 'finished' | 'interrupted' | 'killed' | 'running' | 'incomplete';

export interface RunView {
  path: string;
  header: HeaderRecord;
  end?: EndRecord;
  state: RunState;
  incomplete?: IncompletePlan;
  summary: DeliverySummary;
  /** Every batch, when the journal was read whole. */
  results?: BatchResult[];
}

function stateOf(header: HeaderRecord, end: EndRecord | undefined, incomplete: IncompletePlan | undefined): RunState {
  // A run that closed before reading all of its input (an invalid line, a second Ctrl-C) is no whole run.
  if (end) return incomplete ? 'incomplete' : end.interrupted ? 'interrupted' : 'finished';
  if (runProcessAlive(header.pid, header.pid_start)) return 'running';
  return incomplete ? 'incomplete' : 'killed';
}

/** Reads a journal whole. Throws a usage error naming the file when it cannot be read or is not a journal. */
export function readRunWhole(path: string): RunView & { results: BatchResult[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`, 'give a run id from `pushctl runs` or a readable journal file');
  }
  const run = readJournal(text);
  if (!run.header) throw usageError(`${path} is not a pushctl run journal (no header record)`, 'give a run id from `pushctl runs` or a file that pushctl send wrote with --journal');
  return {
    path,
    header: run.header,
    ...(run.end ? { end: run.end } : {}),
    state: stateOf(run.header, run.end, run.incomplete),
    ...(run.incomplete ? { incomplete: run.incomplete } : {}),
    summary: summarizeBatches(run.results),
    results: run.results,
  };
}

/**
 * A run for the list: a closed run from its first and last lines alone (the closing record holds its
 * summary); any other read whole. Undefined for a file that is not a journal.
 */
export function readRunHead(path: string): RunView | undefined {
  try {
    const header = journalHeader(path);
    if (!header) return undefined;
    const end = closingRecord(path);
    // A run that closed without reading all of its input is read whole, to say what it planned.
    if (end && end.input_stopped === undefined) return { path, header, end, state: stateOf(header, end, undefined), summary: end.summary };
    return readRunWhole(path);
  } catch {
    return undefined;
  }
}

/** The closing record on the last line, if the run closed; the whole-file reader finds the same one. */
function closingRecord(path: string): EndRecord | undefined {
  try {
    const last = JSON.parse(lastLine(path)) as EndRecord;
    return last.t === 'end' && typeof last.exit_code === 'number' && typeof last.summary === 'object' && last.summary !== null ? last : undefined;
  } catch {
    return undefined;
  }
}

/** The journals of `dirs` by run id, read by their first line only. */
function headersIn(dirs: readonly string[]): Map<string, { path: string; header: HeaderRecord }> {
  const byId = new Map<string, { path: string; header: HeaderRecord }>();
  for (const dir of new Set(dirs)) {
    for (const file of listRunFiles(dir)) {
      const header = journalHeader(file.path);
      if (header && !byId.has(header.run_id)) byId.set(header.run_id, { path: file.path, header });
    }
  }
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
 * A run and every run that resent it, and those that resent them, oldest first: one announcement to one
 * audience, sent in several runs. `run` may be any member; its first ancestor found is the start.
 */
export function runFamily(dirs: readonly string[], run: RunView): string[] {
  const byId = headersIn(dirs);
  byId.set(run.header.run_id, { path: run.path, header: run.header });
  let root = run.header.run_id;
  for (let parent = run.header.parent; parent !== undefined && byId.has(parent) && parent !== root; parent = byId.get(parent)!.header.parent) root = parent;
  const family = [root];
  for (let i = 0; i < family.length; i++) {
    for (const { header } of byId.values()) if (header.parent === family[i] && !family.includes(header.run_id)) family.push(header.run_id);
  }
  // In the order they started: a later run's word on a recipient replaces an earlier one's.
  return family
    .map((id) => byId.get(id)!)
    .sort((a, b) => (a.header.started_at < b.header.started_at ? -1 : a.header.started_at > b.header.started_at ? 1 : 0))
    .map(({ path }) => path);
}
