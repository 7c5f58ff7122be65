import { ExitCode } from '../errors.js';
import { describeStatus } from './codes.js';
import { recipientCount, type BatchResult, type BatchStatus } from './send-batches.js';

/** Counts per outcome; keys match the report's section names. */
export type OutcomeCounts = Record<BatchStatus, number> & { total: number };

export interface DeliverySummary {
  batches: OutcomeCounts;
  recipients: OutcomeCounts;
}

/**
 * The file written by `--report <path>`. Every client ID appears exactly once, in the entry of the batch
 * it travelled in, under that batch's outcome:
 *
 * ```json
 * {
 *   "version": 1,
 *   "summary": { "batches":    { "total": 4, "accepted": 1, "rejected": 1, "in_doubt": 1, "not_sent": 1 },
 *                "recipients": { "total": 3500, "accepted": 1000, "rejected": 1000, "in_doubt": 1000, "not_sent": 500 } },
 *   "accepted": [ { "batch": 0, "message_id": "m-123", "client_ids": ["a", "..."] } ],
 *   "rejected": [ { "batch": 1, "code": 21005, "meaning": "message illegal", "message": "the service's text", "client_ids": ["..."] } ],
 *   "in_doubt": [ { "batch": 2, "reason": "HTTP 502 with an answer that is not the documented JSON", "client_ids": ["..."] } ],
 *   "not_sent": [ { "batch": 3, "reason": "interrupted before this batch was sent", "client_ids": ["..."] } ]
 * }
 * ```
 *
 * `in_doubt` means the service may or may not have delivered the message; `not_sent` means it certainly did
 * not (a `not_sent` entry may carry `code` 22001 when rate limiting outlasted the retries, or a code that
 * refused the app itself, 21001-21004 or 21007: see batch-result.ts, refusal). `batch` counts
 * from 0 in input order. A message sent to all devices or by targeting is one batch with no client IDs.
 */
export interface DeliveryReport {
  version: 1;
  /** The run whose outcome this is (absent without a journal): `--report` replaces only a report of its own run. */
  run_id?: string;
  summary: DeliverySummary;
  accepted: { batch: number; message_id: string; client_ids: readonly string[] }[];
  rejected: { batch: number; code: number; meaning: string; message: string; client_ids: readonly string[] }[];
  in_doubt: { batch: number; reason: string; client_ids: readonly string[] }[];
  not_sent: { batch: number; reason: string; code?: number; message?: string; client_ids: readonly string[] }[];
}

const emptyCounts = (): OutcomeCounts => ({ total: 0, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 0 });

/**
 * Whether the service itself said no to a batch: refused it (`rejected`), or refused the app or outlasted the
 * retries with 22001 (`not_sent` with the service's code). Nothing accepted and nothing in doubt, that is a run
 * the service rejected — exit 4 and the state `rejected` — not one that never reached it.
 */
export function serviceRefused(results: readonly BatchResult[]): boolean {
  return results.some((r) => r.status === 'rejected' || (r.status === 'not_sent' && r.code !== undefined));
}

/** The exit status of a delivery (docs/behaviour.md#exit-codes): the one place batch outcomes become a number. */
export function deliveryExitCode(results: readonly BatchResult[], interrupted: boolean): number {
  const count = (status: BatchResult['status']) => results.filter((r) => r.status === status).length;
  const accepted = count('accepted');
  if (accepted === results.length) return ExitCode.ok;
  if (accepted > 0) return ExitCode.partial;
  // Nothing went out because the user pressed Ctrl-C first: the shell's convention for SIGINT.
  if (interrupted && count('not_sent') === results.length && results.every((r) => r.attempts === 0)) return ExitCode.interrupted;
  return serviceRefused(results) ? ExitCode.rejected : ExitCode.network;
}

export function summarizeBatches(results: readonly BatchResult[]): DeliverySummary {
  const summary = { batches: emptyCounts(), recipients: emptyCounts() };
  for (const result of results) {
    summary.batches.total += 1;
    summary.batches[result.status] += 1;
    const count = recipientCount(result);
    summary.recipients.total += count;
    summary.recipients[result.status] += count;
  }
  return summary;
}

/** Several runs' (or targets') counts together. */
export function sumSummaries(summaries: readonly DeliverySummary[]): DeliverySummary {
  const total = { batches: emptyCounts(), recipients: emptyCounts() };
  for (const summary of summaries) {
    for (const unit of ['batches', 'recipients'] as const) {
      for (const key of Object.keys(total[unit]) as (keyof OutcomeCounts)[]) total[unit][key] += summary[unit][key];
    }
  }
  return total;
}

/**
 * The report of a run. Each entry's `client_ids` is a getter reading its batch's IDs from the result, so
 * writing the report with {@link reportJsonChunks} makes the strings of one batch at a time.
 */
export function buildReport(results: readonly BatchResult[], runId?: string): DeliveryReport {
  const report: DeliveryReport = {
    version: 1,
    ...(runId !== undefined ? { run_id: runId } : {}),
    summary: summarizeBatches(results),
    accepted: [],
    rejected: [],
    in_doubt: [],
    not_sent: [],
  };
  for (const result of results) {
    const batch = result.index;
    // `client_ids` is read from the result when the entry is read (as JSON.stringify does, one entry at a
    // time in reportJsonChunks), never copied: a million IDs should not all exist as strings at once.
    const withIds = <T extends object>(entry: T): T & { client_ids: readonly string[] } =>
      Object.defineProperty(entry, 'client_ids', { enumerable: true, configurable: true, get: () => result.clientIds }) as T & { client_ids: readonly string[] };
    switch (result.status) {
      case 'accepted':
        report.accepted.push(withIds({ batch, message_id: result.messageId ?? '' }));
        break;
      case 'rejected': {
        const code = result.code ?? 0;
        report.rejected.push(withIds({ batch, code, meaning: describeStatus(code).meaning, message: result.message ?? '' }));
        break;
      }
      case 'in_doubt':
        report.in_doubt.push(withIds({ batch, reason: result.reason ?? 'unknown' }));
        break;
      case 'not_sent': {
        const service = result.code === undefined ? {} : { code: result.code, message: result.message ?? '' };
        report.not_sent.push(withIds({ batch, reason: result.reason ?? 'not sent', ...service }));
        break;
      }
    }
  }
  return report;
}

/** What resending needs of a report: the batch and IDs of each in_doubt and not_sent entry. */
export type ResendSections = Record<'in_doubt' | 'not_sent', readonly { batch: number; client_ids: readonly string[] }[]>;

const SECTIONS = ['accepted', 'rejected', 'in_doubt', 'not_sent'] as const;

/**
 * The report as JSON text, in pieces of about one batch each, so a report of a million IDs can be written
 * to a file stream without first building one 35 MB string. The pieces join into a valid JSON document:
 * the frame is indented, each entry sits on one line.
 */
export function* reportJsonChunks(report: DeliveryReport): Generator<string> {
  const run = report.run_id !== undefined ? `\n  "run_id": ${JSON.stringify(report.run_id)},` : '';
  yield `{\n  "version": ${JSON.stringify(report.version)},${run}\n  "summary": ${JSON.stringify(report.summary)}`;
  for (const section of SECTIONS) {
    const entries = report[section];
    yield `,\n  "${section}": [`;
    for (let i = 0; i < entries.length; i++) yield `${i === 0 ? '' : ','}\n    ${JSON.stringify(entries[i])}`;
    yield entries.length === 0 ? ']' : '\n  ]';
  }
  yield '\n}\n';
}
