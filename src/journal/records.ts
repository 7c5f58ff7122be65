// The lines of a run journal (docs/behaviour.md#journal). One JSON object per line, told apart by `t`. Short keys
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
  /**
   * When the process started, in clock ticks since boot (Linux `/proc/<pid>/stat`), so a pid that a later
   * process reuses is not taken for the run still going. Absent where the system does not say.
   */
  pid_start?: number;
  app_id: string;
  /** Host (and port) the requests go to; never the secret. */
  host: string;
  /** The base URL the requests went to (scheme, host, port, path; never credentials), for `pushctl resend`. */
  base_url?: string;
  dry_run: boolean;
  /** The command line as typed, secrets removed (they never are argv flags; the scrubber catches the rest). */
  argv: string[];
  /** The validated message without its client IDs: what `pushctl resend` sends again. */
  message: object;
  /**
   * A message with variants (docs/behaviour.md#variants): each variant's whole message as sent, by language
   * tag; a batch record's `lang` says which one the batch carried. Absent in journals before 0.3.
   */
  variants?: Record<string, object>;
  /**
   * The plan: how many client IDs and batches the batch records that follow hold. A journal whose batch
   * records fall short of these is `incomplete` (cut short while the plan was written), never a smaller run.
   * `null` while unknown (a plan written as its input is read): a `plan` record then closes the plan.
   */
  recipients: number | null;
  batches: number | null;
  /**
   * The client-ID file (absolute path; `-` for stdin) of a plan written as its input was read: a run stopped
   * before the end of it is resent with that input given again (`pushctl resend <run> --client-ids-file`).
   */
  input?: string;
  /** `--once <key>`: the key, and the fingerprint of message and audience it was first used with. */
  once?: string;
  fingerprint?: string;
  /** The run this one resends (`pushctl resend`, or `--once` resuming): its run id. */
  parent?: string;
  /** A `--once` run sent afresh in place of the key's run cut short while planning, before any request: its run id. */
  replaces?: string;
  /**
   * What the runs it resends left in doubt and it does not send again (without --include-in-doubt): recipients,
   * or requests for an audience. The family's in doubt beyond this run's own, for `pushctl runs`' LEFT.
   */
  in_doubt_before?: number;
  /**
   * The lock that owned the run's family while it sent (docs/behaviour.md#ownership): the run is `running`
   * while that lock is alive and held by this run. Absent in journals of pushctl 0.2 (the pid decides).
   */
  lock?: string;
  /**
   * A run of several targets (docs/behaviour.md#targets): the run id of its first target, the same in every
   * target's journal, so `runs`, `runs show` and `resend` take the targets as one. Absent for one target.
   */
  targets?: string;
  /** The profile this target's settings came from (a run of several targets). */
  profile?: string;
}

/** Closes a plan whose totals the header could not declare (see HeaderRecord.recipients). */
export interface PlanRecord {
  t: 'plan';
  recipients: number;
  batches: number;
}

/**
 * The client IDs of one batch. Every batch's record is written before any request of that batch (before the
 * first request of the run, unless the plan grows as its input is read), so a batch that is never started
 * can still be listed as not sent after a kill.
 */
export interface BatchRecord {
  t: 'batch';
  b: number;
  ids: string[];
  /** The variant the batch carries: a tag of the header's `variants`, or null for the base message. Absent without variants. */
  lang?: string | null;
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
  /** accepted, rejected, in_doubt (may have been delivered; `ambiguous` before 0.3), retryable (certainly not processed). */
  kind: 'accepted' | 'rejected' | 'in_doubt' | 'retryable';
  message_id?: string;
  code?: number;
  message?: string;
  reason?: string;
  /** Set when a retry of the batch was due after this attempt (absent in journals before 0.3). */
  retry?: true;
}

/** Last line of a run that ended by itself (or was stopped by a signal and still closed its journal). */
export interface EndRecord {
  t: 'end';
  ended_at: string;
  interrupted: boolean;
  exit_code: number;
  summary: DeliverySummary;
  /**
   * Why the run read its client-ID input no further (an invalid line, a second Ctrl-C): its plan has no
   * `plan` record and reads as incomplete. Absent when the input was read to its end.
   */
  input_stopped?: string;
}

export type JournalRecord = HeaderRecord | PlanRecord | BatchRecord | StartRecord | OutcomeRecord | EndRecord;

/** An end record as read back: journals written before 0.3 count the in-doubt batches under `unknown`. */
export function isEndRecord(record: { t?: unknown; exit_code?: unknown; summary?: unknown }): record is EndRecord {
  if (typeof record.exit_code !== 'number' || typeof record.summary !== 'object' || record.summary === null) return false;
  for (const counts of Object.values(record.summary) as Record<string, unknown>[]) {
    if (typeof counts === 'object' && counts !== null && counts.in_doubt === undefined && typeof counts.unknown === 'number') {
      counts.in_doubt = counts.unknown;
      delete counts.unknown;
    }
  }
  return true;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);
const KINDS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  count: (v) => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0),
  boolean: (v) => typeof v === 'boolean',
  words: (v) => Array.isArray(v) && v.every((word) => typeof word === 'string'),
  object: isObject,
  messages: (v) => isObject(v) && Object.values(v).every(isObject),
};
const REQUIRED = ['run_id', 'started_at', 'app_id', 'host', 'dry_run', 'argv', 'message'] as const;
/** The kind of each header field pushctl reads; `count` is a whole number or null (a plan not yet known). */
const HEADER_FIELDS: Record<string, keyof typeof KINDS> = {
  run_id: 'string', started_at: 'string', version: 'string', pid: 'number', pid_start: 'number', app_id: 'string', host: 'string', base_url: 'string',
  dry_run: 'boolean', argv: 'words', message: 'object', variants: 'messages', recipients: 'count', batches: 'count', input: 'string', once: 'string',
  fingerprint: 'string', parent: 'string', replaces: 'string', in_doubt_before: 'count', lock: 'string', targets: 'string', profile: 'string',
};

/**
 * What is wrong with a header record read back, in words naming the field; undefined when every field pushctl
 * reads is of its kind. A journal is data (docs/behaviour.md#trust): one edited by hand is refused with the
 * field named, never read until something breaks. Only fields every journal since 0.1 holds are required.
 */
export function headerProblem(record: object): string | undefined {
  const fields = record as Record<string, unknown>;
  for (const field of REQUIRED) if (fields[field] === undefined) return `its header's ${field} is missing`;
  for (const [field, kind] of Object.entries(HEADER_FIELDS)) {
    if (fields[field] !== undefined && !KINDS[kind]!(fields[field])) return `its header's ${field} is not ${kind === 'words' ? 'a list of strings' : kind === 'messages' ? 'an object of messages' : kind === 'count' ? 'a whole number' : `a${kind === 'object' ? 'n' : ''} ${kind}`}`;
  }
  // A run resends another: one naming itself would be its own family's first run and its resend.
  if (fields.parent === fields.run_id) return "its header's parent names the run itself";
  return undefined;
}
