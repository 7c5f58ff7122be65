// What a journal says about its run as a whole: the pure part of `pushctl runs`.
import { summarizeBatches, type DeliverySummary } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';
import type { EndRecord, HeaderRecord } from './records.js';

/** finished: closed normally; interrupted: stopped by a signal and closed; killed: no closing record, process gone. */
export type RunState = 'finished' | 'interrupted' | 'killed' | 'running';

export interface RunOverview {
  run_id: string;
  path: string;
  started_at: string;
  app_id: string;
  host: string;
  dry_run: boolean;
  state: RunState;
  exit_code: number | null;
  batches: DeliverySummary['batches'];
  recipients: DeliverySummary['recipients'];
}

export function runState(end: EndRecord | undefined, processAlive: boolean): RunState {
  if (end) return end.interrupted ? 'interrupted' : 'finished';
  return processAlive ? 'running' : 'killed';
}

/**
 * A run's overview. The counts come from the batches as read back when they are given (the truth after a
 * kill), else from the closing record.
 */
export function overview(path: string, header: HeaderRecord, end: EndRecord | undefined, state: RunState, results?: readonly BatchResult[]): RunOverview {
  const summary = results ? summarizeBatches(results) : end!.summary;
  return {
    run_id: header.run_id,
    path,
    started_at: header.started_at,
    app_id: header.app_id,
    host: header.host,
    dry_run: header.dry_run,
    state,
    exit_code: end?.exit_code ?? null,
    batches: summary.batches,
    recipients: summary.recipients,
  };
}

/** Each accepted batch's message_id, once each, in batch order. */
export function messageIds(results: readonly BatchResult[]): string[] {
  return [...new Set(results.flatMap((r) => (r.status === 'accepted' && r.messageId ? [r.messageId] : [])))];
}
