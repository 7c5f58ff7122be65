// The lines of a run journal (SPEC section 8). One JSON object per line, told apart by `t`. Short keys
// because a journal of a million recipients repeats them a thousand times; the README documents them.
import type { DeliverySummary } from '../client/report.js';

export const JOURNAL_FORMAT = 'pushctl-journal';

/** First line: what the run was. Written before anything is sent. */
export interface HeaderRecord {
  t: 'header';
  format: typeof JOURNAL_FORMAT;
  v: 1;
  run_id: string;
  started_at: string;
  version: string;
  pid: number;
  app_id: string;
  /** Host (and port) the requests go to; never the secret. */
  host: string;
  dry_run: boolean;
  /** The command line as typed, secrets removed (they never are argv flags; the scrubber catches the rest). */
  argv: string[];
  /** The validated message without its client IDs. */
  message: object;
  recipients: number;
  batches: number;
}

/**
 * The client IDs of one batch. Every batch's record is written before the first request of the run, so a
 * batch that is never started can still be listed as not sent after a kill.
 */
export interface BatchRecord {
  t: 'batch';
  b: number;
  ids: string[];
}

/** Written before the attempt's first byte leaves: from here on the attempt may have been delivered. */
export interface StartRecord {
  t: 'start';
  b: number;
  a: number;
}

/** Written after the attempt's answer (or failure) is known. */
export interface OutcomeRecord {
  t: 'outcome';
  b: number;
  a: number;
  /** accepted, rejected, ambiguous (may have been delivered), retryable (certainly not processed). */
  kind: 'accepted' | 'rejected' | 'ambiguous' | 'retryable';
  message_id?: string;
  code?: number;
  message?: string;
  reason?: string;
}

/** Last line of a run that ended by itself (or was stopped by a signal and still closed its journal). */
export interface EndRecord {
  t: 'end';
  ended_at: string;
  interrupted: boolean;
  exit_code: number;
  summary: DeliverySummary;
}

export type JournalRecord = HeaderRecord | BatchRecord | StartRecord | OutcomeRecord | EndRecord;
