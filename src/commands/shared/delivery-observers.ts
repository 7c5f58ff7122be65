// What a delivery watches while it sends: the journal records every attempt, the progress line counts batches,
// and --verbose (or, without it, the first retry) shows attempts on stderr. Each is an observer of
// sendBatches; `deliver` composes the ones a run asks for.
import type { Ctx, TextSink } from '../../context.js';
import type { RequestView } from '../../client/outcome.js';
import type { AttemptEvent, BatchProgress, SendObserver } from '../../client/send-batches.js';
import type { Lease } from '../../journal/ownership.js';
import type { RunJournal } from '../../journal/run-journal.js';
import { formatAttempt } from '../../output/delivery.js';
import { movingRate, type Progress } from '../../output/progress.js';
import type { Style } from '../../output/style.js';

/** Every observer's calls, in the order given; an observer that throws stops the rest (the journal's must). */
export function composeObservers(...observers: (SendObserver | undefined)[]): SendObserver {
  const present = observers.filter((o): o is SendObserver => o !== undefined);
  const starts = present.flatMap((o) => (o.onAttemptStart ? [o.onAttemptStart] : []));
  const attempts = present.flatMap((o) => (o.onAttempt ? [o.onAttempt] : []));
  const progress = present.flatMap((o) => (o.onProgress ? [o.onProgress] : []));
  return {
    ...(starts.length > 0 ? { onAttemptStart: (batch: number, attempt: number) => starts.forEach((f) => f(batch, attempt)) } : {}),
    ...(attempts.length > 0 ? { onAttempt: (event: AttemptEvent) => attempts.forEach((f) => f(event)) } : {}),
    ...(progress.length > 0 ? { onProgress: (p: BatchProgress) => progress.forEach((f) => f(p)) } : {}),
  };
}

/**
 * No request leaves once another process took over a lock of the run (docs/behaviour.md#ownership): each
 * lease is read again before each request, not trusted from its last refresh, since a process continued
 * after a stop (SIGSTOP, a suspended laptop) runs the batches that came due before its refresh timer runs.
 */
export function ownershipCheck(leases: readonly Pick<Lease, 'held' | 'name'>[]): (() => void) | undefined {
  if (leases.length === 0) return undefined;
  return () => {
    const lost = leases.find((lease) => !lease.held());
    if (lost) throw new Error(`another pushctl process took over ${lost.name}`);
  };
}

/**
 * The journal records each attempt before it leaves, and its outcome when it comes (docs/behaviour.md#journal).
 * `mayLeave` is asked after the start is recorded, so a run taken over either sees the attempt or stops it.
 */
export function journalObserver(journal: RunJournal, mayLeave?: () => void): SendObserver {
  return {
    onAttemptStart: (batch, attempt) => journal.attemptStart(batch, attempt, mayLeave),
    onAttempt: (event) => journal.attempt(event),
  };
}

/** How many completion times the moving rate keeps: only the last seconds matter. */
const KEPT_TIMES = 4096;

/**
 * The progress line: batches and recipients done (a `+` while the plan still grows; no recipients for a send
 * by conditions), a moving rate, the time; drawn on a terminal, and told to `told` (the MCP server's progress
 * notifications) with its counts.
 */
export function progressObserver(progress: Pick<Progress, 'update'>, elapsedMs: () => number, told?: Ctx['onProgress']): SendObserver {
  // Completion times of requests (ms since the start), for an honest moving rate.
  const doneAt: number[] = [];
  return {
    onProgress: (p) => {
      const now = elapsedMs();
      doneAt.push(now);
      if (doneAt.length > KEPT_TIMES) doneAt.splice(0, KEPT_TIMES / 2);
      const more = p.planComplete ? '' : '+';
      // A send by conditions names no client IDs: the devices it reaches are the service's to count.
      const recipients = p.planComplete && p.recipientsTotal === 0 ? '' : ` · recipients ${p.recipientsDone}/${p.recipientsTotal}${more}`;
      const line = `batches ${p.batchesDone}/${p.batchesTotal}${more}${recipients} · ${movingRate(doneAt, now).toFixed(0)} req/s · ${(now / 1000).toFixed(1)} s`;
      progress.update(line);
      told?.({ batchesDone: p.batchesDone, batchesTotal: p.batchesTotal, planComplete: p.planComplete, line });
    },
  };
}

export interface AttemptLogOptions {
  stderr: TextSink;
  describeRequest: (body: object) => RequestView;
  style: Style;
  verbose: boolean;
  human: boolean;
}

/**
 * With --verbose, every attempt's request and answer on stderr. Without it, a human is told of the first
 * retry at once: retries of an unreachable URL take up to half a minute, and the reason is known now.
 */
export function attemptLogObserver(options: AttemptLogOptions): SendObserver | undefined {
  const { stderr, style } = options;
  if (options.verbose) return { onAttempt: (event) => void stderr.write(formatAttempt(event, options.describeRequest(event.body))) };
  if (!options.human) return undefined;
  let warned = false;
  return {
    onAttempt: (event) => {
      if (warned || event.retryInMs === undefined || event.outcome.kind !== 'retryable') return;
      warned = true;
      stderr.write(`${style.warn('retrying')}: ${event.outcome.reason}\n`);
    },
  };
}
