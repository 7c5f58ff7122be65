// Stage 3 of a send (and of a resend): deliver a validated message to its recipients, journaling every step,
// then write the report. Shared by `send`, `dry-run`, `resend` and `--once` resuming a run; returns what
// happened as data for output/ to render.
import { withInterrupt, type Ctx } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import type { PushClient } from '../../client/push-client.js';
import { BatchPlan } from '../../client/batches.js';
import { RateLimiter } from '../../client/rate-limiter.js';
import { deliveryExitCode, summarizeBatches, type DeliverySummary } from '../../client/report.js';
import { sendBatches, type BatchResult, type SendBatchesOptions } from '../../client/send-batches.js';
import { monotonicNow } from '../../client/sleep.js';
import { hasLanes, isGrowing, type ClientIdSource, type GrowingClientIds } from '../../message/recipients.js';
import { summarizeVariants } from '../../client/variant-summary.js';
import { variantAudienceWords, type VariantDelivery } from './variant-delivery.js';
import type { MessageIssue, PushMessage } from '../../message/types.js';
import { audienceWords } from '../../message/audience.js';
import { dedupeNote } from '../../message/assemble.js';
import { RunJournal } from '../../journal/run-journal.js';
import { runsDir } from '../../journal/runs-dir.js';
import type { Lease } from '../../journal/ownership.js';
import type { DeliveryOutcome } from '../../output/delivery.js';
import { codeSpan } from '../../output/markdown.js';
import { startProgress } from '../../output/progress.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { Style } from '../../output/style.js';
import { VERSION } from '../../version.js';
import { attemptLogObserver, composeObservers, journalObserver, ownershipCheck, progressObserver } from './delivery-observers.js';
import { discardReport, writeReport, type ReportFile } from './report-file.js';
import { leftToSend, reportCommand, resendAdvice, resendFromReport, resendRun, settingsFlags, type ResendAdvice } from './resend-command.js';

export interface DeliveryRequest {
  client: PushClient;
  baseUrl: URL;
  appId: string;
  body: PushMessage;
  clientIds?: ClientIdSource;
  dryRun: boolean;
  /** The command line as typed (the journal's header keeps it, secrets never being argv flags). */
  argv: readonly string[];
  batchSize: number;
  concurrency?: number;
  rate?: number;
  retryInDoubt?: boolean;
  maxAttempts?: number;
  /** `--journal <path>`, false with `--no-journal`, else the runs directory. */
  journal?: string | boolean;
  once?: { key: string; fingerprint: string };
  parent?: string;
  /** A `--once` run sent afresh in place of the key's run cut short while planning (docs/behaviour.md#once). */
  replaces?: string;
  /** The run id and family lock this process claimed before reading earlier runs (docs/behaviour.md#ownership). */
  runId?: string;
  lock?: string;
  /**
   * A resend that left out the run's recipients in doubt: they are still in doubt after it, and its advice
   * counts them (the resend command it prints reads the whole family of runs).
   */
  inheritedInDoubt?: number;
  /** The `--report` file, opened (checked) before anything was sent. */
  report?: ReportFile;
  /**
   * What the report lists, from this run's results: a `--once` resume's report is its whole family's, every
   * recipient of the key once (docs/behaviour.md#once). This run's own results when absent.
   */
  reportResults?: (own: BatchResult[]) => BatchResult[];
  /**
   * The rate limiter of the run's destination, when several targets share it (docs/behaviour.md#targets);
   * else one of its own at `rate`.
   */
  limiter?: RateLimiter;
  /** A run of several targets: the family (its first target's run id) and this target's profile. */
  targets?: { family: string; profile: string };
  /** Where growing `clientIds` are read from (absolute path, or `-`): the journal keeps it for a resend. */
  input?: string;
  /** The message's variants (docs/behaviour.md#variants): `clientIds` then are in lanes, or `audiences` lists the requests. */
  variants?: VariantDelivery;
  /**
   * The locks this process holds for the run (docs/behaviour.md#ownership). Should another process take one
   * over (this one stopped refreshing it), no further request starts, and that is the run's error (exit 2).
   */
  leases?: readonly Lease[];
  /** What the message's checks said, shown with the outcome. */
  warnings?: MessageIssue[];
  notes?: MessageIssue[];
  human: boolean;
  verbose: boolean;
}

/** What a run under way is made of, once its plan and journal exist. */
interface OpenRun {
  plan: BatchPlan;
  journal: RunJournal | undefined;
  /** The client-ID input still being read, if it is. */
  feed: GrowingClientIds | undefined;
  /** When sending began (monotonic ms, once the progress line is up), for the elapsed time. */
  started: number;
}

export async function deliver(request: DeliveryRequest, given: Ctx, scrubber: SecretScrubber, style: Style): Promise<DeliveryOutcome> {
  const leases = request.leases ?? [];
  const ctx = leases.length > 0 ? withInterrupt(given, AbortSignal.any([given.interrupt, ...leases.map((lease) => lease.lost)])) : given;
  const run = await openRun(request, ctx, scrubber);
  const results = await sendAll(request, ctx, style, run);
  if (run.feed?.failure !== undefined && results.every((r) => r.attempts === 0)) {
    // The input failed before anything went out: the run is its error alone, as for a short list.
    run.journal?.abandon();
    if (request.report) await discardReport(request.report);
    throw run.feed.failure;
  }
  return finishRun(request, ctx, scrubber, run, results);
}

/** Plans the batches and starts the journal; on failure nothing has been sent and everything is let go. */
async function openRun(request: DeliveryRequest, ctx: Ctx, scrubber: SecretScrubber): Promise<OpenRun> {
  const { clientIds } = request;
  const feed = isGrowing(clientIds) ? clientIds : undefined;
  try {
    // An input that failed while the destination was being set up: nothing has been sent.
    if (feed?.failure !== undefined) throw feed.failure;
    const plan = planOf(request, feed);
    // The first request waits for its own batch record only: the batches already read are planned (and
    // journaled) once it is on its way.
    if (feed) {
      if (feed.settled) growPlan(plan, feed);
      else plan.extend(Math.min(feed.length, request.batchSize));
    }
    const journal = request.journal === false ? undefined : RunJournal.start(journalStart(request, ctx, scrubber, plan));
    return { plan, journal, feed, started: monotonicNow() };
  } catch (error) {
    feed?.cancel();
    request.client.close();
    if (request.report) await discardReport(request.report);
    throw error;
  }
}

/** The batches: over the recipients (in their variant lanes, if any), or one request per variant of an audience. */
function planOf(request: DeliveryRequest, feed: GrowingClientIds | undefined): BatchPlan {
  const { clientIds, batchSize } = request;
  if (request.variants?.audiences) return BatchPlan.ofAudiences(request.variants.audiences);
  const lanes = hasLanes(clientIds) ? clientIds : undefined;
  return feed ? new BatchPlan(batchSize, lanes) : BatchPlan.of(clientIds?.length ?? 0, batchSize, lanes);
}

/** The journal's header: the run as asked for, with the secrets filtered out (docs/behaviour.md#journal). */
function journalStart(request: DeliveryRequest, ctx: Ctx, scrubber: SecretScrubber, plan: BatchPlan): Parameters<typeof RunJournal.start>[0] {
  return {
    ...(typeof request.journal === 'string' ? { path: request.journal } : {}),
    env: ctx.env,
    cwd: ctx.cwd,
    filter: scrubber,
    version: VERSION,
    appId: request.appId,
    baseUrl: request.baseUrl,
    dryRun: request.dryRun,
    argv: request.argv,
    message: request.body,
    ...(request.variants ? { variants: Object.fromEntries(request.variants.messages) } : {}),
    clientIds: request.clientIds,
    plan,
    ...(plan.open && request.input !== undefined ? { input: request.input } : {}),
    ...(request.once ? { once: request.once } : {}),
    ...(request.parent !== undefined ? { parent: request.parent } : {}),
    ...(request.replaces !== undefined ? { replaces: request.replaces } : {}),
    ...(request.inheritedInDoubt ? { inDoubtBefore: request.inheritedInDoubt } : {}),
    ...(request.runId !== undefined ? { runId: request.runId } : {}),
    ...(request.lock !== undefined ? { lock: request.lock } : {}),
    ...(request.targets ? { targets: request.targets } : {}),
  };
}

/** Sends every batch with the run's observers watching; the input, the progress line and the client are let go at the end. */
async function sendAll(request: DeliveryRequest, ctx: Ctx, style: Style, run: OpenRun): Promise<BatchResult[]> {
  const { client } = request;
  const { plan, journal, feed } = run;
  // The plan grows as the input is read (the journal records each batch first); a second Ctrl-C stops reading.
  const unfollow = feed?.onChange(() => growPlan(plan, feed));
  const stopReading = () => feed?.cancel();
  ctx.stopNow?.addEventListener('abort', stopReading);
  const progress = await startProgress(ctx.stderr, request.human, request.dryRun ? 'dry run…' : 'sending…', ctx.env);
  run.started = monotonicNow();
  const mayLeave = ownershipCheck(request.leases ?? []);
  const observers = composeObservers(
    journal ? journalObserver(journal, mayLeave) : mayLeave && { onAttemptStart: mayLeave },
    progressObserver(progress, () => monotonicNow() - run.started, ctx.onProgress),
    attemptLogObserver({ stderr: ctx.stderr, describeRequest: (body) => client.describeRequest(body), style, verbose: request.verbose, human: request.human }),
  );
  try {
    const sending = sendBatches({ ...sendOptions(request, ctx, plan), ...observers });
    // The first batch is on its way: the rest of the input may take the CPU now.
    if (feed) {
      feed.release();
      setImmediate(() => growPlan(plan, feed));
    }
    return await sending;
  } catch (error) {
    journal?.abandon();
    if (request.report) await discardReport(request.report);
    throw error;
  } finally {
    unfollow?.();
    ctx.stopNow?.removeEventListener('abort', stopReading);
    // Stopped short (a journal that failed, a stop-now): the rest of the input is not read.
    feed?.cancel();
    progress.stop();
    client.close();
  }
}

/** What sendBatches is asked to do: the message, the recipients, the pace, the retry policy, the stops. */
function sendOptions(request: DeliveryRequest, ctx: Ctx, plan: BatchPlan): SendBatchesOptions {
  return {
    client: request.client,
    body: request.body,
    ...(request.variants ? { variants: request.variants.messages } : {}),
    ...(request.clientIds ? { clientIds: request.clientIds } : {}),
    batchSize: request.batchSize,
    plan,
    ...(request.concurrency !== undefined ? { concurrency: request.concurrency } : {}),
    limiter: request.limiter ?? new RateLimiter({ rate: request.rate ?? 50 }),
    retry: { retryInDoubt: request.retryInDoubt === true, ...(request.maxAttempts !== undefined ? { maxAttempts: request.maxAttempts } : {}) },
    signal: ctx.interrupt,
    ...(ctx.stopNow ? { stopNow: ctx.stopNow } : {}),
  };
}

/** Ends the journal, writes the report asked for, and says what is left and how to send it. */
async function finishRun(request: DeliveryRequest, ctx: Ctx, scrubber: SecretScrubber, run: OpenRun, results: BatchResult[]): Promise<DeliveryOutcome> {
  const { plan, journal, feed } = run;
  const inputFailure = feed?.failure === undefined ? undefined : inputError(feed.failure);
  const interrupted = ctx.interrupt.aborted;
  const journalFailure = journal?.failure;
  // A journal that stopped recording stops the run, whatever the batches came to (docs/behaviour.md#journal),
  // and an input that failed half-way is the user's to fix: each error's own exit code is the run's.
  const runExitCode = journalFailure ? journalFailure.exitCode : inputFailure ? inputFailure.exitCode : deliveryExitCode(results, interrupted);
  const summary = summarizeBatches(results);
  journal?.end(summary, runExitCode, interrupted, plan.complete ? undefined : (plan.stoppedBy ?? 'stopped reading'));
  const reportPath = await writeRequestedReport(request, scrubber, results, journal, journalFailure !== undefined);
  const runRef = journal ? runReference(journal, request.journal, ctx.env) : undefined;
  const audience = request.variants ? variantAudienceWords(request.body, request.variants) : audienceWords(request.body);
  const variants = summarizeVariants(results);
  const lost = request.leases?.find((lease) => lease.lost.aborted);
  // What stopped the run from starting requests, first the one that makes any other moot.
  const stopError = lost
    ? { message: `another pushctl process took over ${lost.name} (this one had stopped refreshing its lock); no further request was started` }
    : journalFailure
      ? { message: journalFailure.message, ...(journalFailure.hint ? { hint: journalFailure.hint } : {}) }
      : inputFailure && halfReadInput(inputFailure, request, runRef);
  const exitCode = lost ? ExitCode.usage : runExitCode;
  // Repeats in a list read while sending are known only at its end.
  const repeats = isGrowing(request.clientIds) ? (request.clientIds.list?.duplicates ?? 0) : 0;
  return {
    results,
    summary,
    exitCode,
    dryRun: request.dryRun,
    batched: (request.clientIds?.length ?? 0) > request.batchSize,
    warnings: request.warnings ?? [],
    notes: repeats > 0 ? [...(request.notes ?? []), dedupeNote(repeats)] : (request.notes ?? []),
    interrupted,
    elapsedSeconds: (monotonicNow() - run.started) / 1000,
    ...(request.parent !== undefined ? { resumedFrom: request.parent } : {}),
    ...(audience ? { audience } : {}),
    ...(journal ? { runId: journal.runId, journalPath: journal.path } : {}),
    ...(stopError ? { stopError } : {}),
    ...(reportPath !== undefined ? { reportPath } : {}),
    ...adviceFor(request, plan, summary, audience, runRef, reportPath),
    // A run to an audience (every device, a condition) has no recipients for a report to list.
    ...(runRef !== undefined && reportPath === undefined && exitCode !== ExitCode.ok && audience === undefined ? { reportCommand: reportCommand(runRef) } : {}),
    ...(variants ? { variants } : {}),
  };
}

/**
 * The journal is the record of who got what; a report is written only where --report asked for one
 * (docs/behaviour.md#reports): `pushctl runs show <run> --report <path>` makes one later.
 */
async function writeRequestedReport(request: DeliveryRequest, scrubber: SecretScrubber, results: BatchResult[], journal: RunJournal | undefined, journalFailed: boolean): Promise<string | undefined> {
  if (!request.report) return undefined;
  try {
    await writeReport(request.report, request.reportResults ? request.reportResults(results) : results, scrubber, journal?.runId);
    return request.report.path;
  } catch (error) {
    if (!journalFailed) throw error;
    // The disk may be the full one: the journal's failure is what the user must hear about.
    return undefined;
  }
}

/** What is left to send and the one command that sends it, counting what an earlier run left in doubt. */
function adviceFor(request: DeliveryRequest, plan: BatchPlan, summary: DeliverySummary, audience: string | undefined, runRef: string | undefined, reportPath: string | undefined): { advice?: ResendAdvice } {
  const own = leftToSend(summary, audience);
  const left = { notSent: own.notSent, inDoubt: own.inDoubt + (request.inheritedInDoubt ?? 0) };
  // A run that did not read its whole input is resent with that input given again.
  const unread = !plan.complete && request.input !== undefined ? request.input : undefined;
  const commandFor = runRef !== undefined ? resendRun(runRef, unread, settingsFlags(request.argv)) : reportPath !== undefined ? resendFromReport(request.argv, reportPath) : undefined;
  // --no-journal without --report: no command can send the rest, and the advice says so instead.
  const advice = resendAdvice(commandFor, left, audience, summary.batches.total, request.dryRun);
  return advice ? { advice } : {};
}

/** The input that failed half-way, said with the command that sends the rest once it is fixed. */
function halfReadInput(failure: { message: string; hint?: string }, request: DeliveryRequest, runRef: string | undefined): { message: string; hint?: string } {
  const rest = resendRun(runRef ?? '<run>', request.input, settingsFlags(request.argv))(false);
  return {
    message: `${failure.message}; the input was read no further, and nothing after that point was sent`,
    // A code span: the command is told apart from the words around it, which the action says in its terms.
    hint: `${failure.hint ? `${failure.hint}; then ` : ''}send the rest with: ${codeSpan(rest)}`,
  };
}

/** Why the client-ID input stopped half-way, with its exit code: an invalid line (3), or a file that could not be read (2). */
function inputError(error: unknown): { message: string; hint?: string; exitCode: number } {
  if (error instanceof CliError) return { message: error.message, ...(error.hint ? { hint: error.hint } : {}), exitCode: error.exitCode };
  const code = (error as NodeJS.ErrnoException).code;
  return { message: `cannot read the client-ID input${code ? ` (${code})` : ''}`, exitCode: ExitCode.usage };
}

/** Plans what the input has filled so far; the whole rest once it is read; no more than its full batches once it failed. */
function growPlan(plan: BatchPlan, feed: GrowingClientIds): void {
  if (!plan.open) return;
  if (feed.list) plan.extend(feed.length, true);
  else if (feed.failure !== undefined) {
    // The lines before the bad one are good: their full batches go out; a short rest waits for the resend,
    // which sends it with what follows the fixed line.
    plan.extend(feed.length);
    plan.stop(feed.failure instanceof Error ? feed.failure.message : String(feed.failure));
  } else if (feed.settled) plan.stop('stopped reading the client-ID input');
  else plan.extend(feed.length);
}

/** How the user names a run: its id when its journal is in the runs directory `pushctl runs` reads, else its path. */
function runReference(journal: RunJournal, option: string | boolean | undefined, env: Record<string, string | undefined>): string {
  return typeof option === 'string' || !journal.path.startsWith(runsDir(env)) ? journal.path : journal.runId;
}
