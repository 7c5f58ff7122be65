// `pushctl send` and `pushctl dry-run`: assemble → validate → settings → deliver → report.
import type { Ctx } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { readMessageInput, type MessageInputOptions } from '../input/read-message-input.js';
import { assembleMessage } from '../message/assemble.js';
import { MAX_TIMER_MS, parseDurationMs } from '../message/duration.js';
import { validateAssembledWithoutRecipients } from '../message/validate-assembled.js';
import type { MessageIssue, PushMessage } from '../message/types.js';
import { createPushClient } from '../client/proxy-agent.js';
import { choosePushProxy } from './shared/proxy-choice.js';
import { RateLimiter } from '../client/rate-limiter.js';
import { MAX_BATCH_SIZE, planBatches } from '../client/batches.js';
import type { ClientIdSource } from '../message/recipients.js';
import { summarizeBatches } from '../client/report.js';
import { sendBatches, type BatchResult } from '../client/send-batches.js';
import { DEFAULT_RETRY_POLICY } from '../client/retry.js';
import { monotonicNow } from '../client/sleep.js';
import { loadSettings, type SettingsOptions } from '../settings/load-settings.js';
import { requireCredentials } from '../settings/resolve.js';
import { checkBaseUrl } from '../settings/check-base-url.js';
import type { SecretScrubber } from '../output/redact.js';
import { styleFor } from '../output/style.js';
import { movingRate, startProgress } from '../output/progress.js';
import { formatIssueList } from '../output/issues.js';
import { formatAttempt, printDelivery } from '../output/delivery.js';
import { describeDestination } from '../output/destination.js';
import { describeValidation } from '../output/validation.js';
import { resendCommand } from './shared/resend-command.js';
import { discardReport, openAutomaticReportFile, openReportFile, writeReport, type ReportFile } from './shared/report-file.js';
import { RunJournal } from '../journal/run-journal.js';
import { VERSION } from '../version.js';
import { annotateIssues } from '../output/annotations.js';

export interface SendCommandOptions extends MessageInputOptions, SettingsOptions {
  dryRun: boolean;
  /** The command line as typed, for the resend command in the summary. */
  argv: readonly string[];
  strict?: boolean;
  /** false with --no-validate. */
  validate?: boolean;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  batchSize?: number;
  concurrency?: number;
  rate?: number;
  retryAmbiguous?: boolean;
  maxAttempts?: number;
  report?: string;
  /** `--journal <path>`, or false with `--no-journal`. */
  journal?: string | boolean;
}

/** The exit status of a delivery (SPEC section 2): the one place batch outcomes become a number. */
export function deliveryExitCode(results: readonly BatchResult[], interrupted: boolean): number {
  const count = (status: BatchResult['status']) => results.filter((r) => r.status === status).length;
  const accepted = count('accepted');
  if (accepted === results.length) return ExitCode.ok;
  if (accepted > 0) return ExitCode.partial;
  // Nothing went out because the user pressed Ctrl-C first: the shell's convention for SIGINT.
  if (interrupted && count('not_sent') === results.length && results.every((r) => r.attempts === 0)) return ExitCode.interrupted;
  const serviceSaidNo = results.some((r) => r.status === 'rejected' || (r.status === 'not_sent' && r.code !== undefined));
  return serviceSaidNo ? ExitCode.rejected : ExitCode.network;
}

function checkDeliveryOptions(options: SendCommandOptions): void {
  if (options.batchSize !== undefined && (options.batchSize < 1 || options.batchSize > MAX_BATCH_SIZE)) {
    throw usageError(`--batch-size ${options.batchSize} is out of range`, `use 1 to ${MAX_BATCH_SIZE} (the service takes at most ${MAX_BATCH_SIZE} client IDs per request)`);
  }
  if (options.concurrency !== undefined && options.concurrency < 1) throw usageError('--concurrency must be at least 1', 'e.g. --concurrency 8');
  if (options.maxAttempts !== undefined && (options.maxAttempts < 1 || options.maxAttempts > DEFAULT_RETRY_POLICY.maxAttempts)) {
    throw usageError(`--max-attempts ${options.maxAttempts} is out of range`, `use 1 (no retries) to ${DEFAULT_RETRY_POLICY.maxAttempts}`);
  }
}

/** The flags that give a message content or recipients; with none of them there is nothing to send. */
const MESSAGE_FLAGS = ['file', 'title', 'desc', 'body', 'type', 'data', 'dataFile', 'style', 'icon', 'smallIcon', 'smallIconColor', 'buttonText', 'openApp', 'openUrl', 'openActivity', 'ttl', 'all', 'clientId', 'clientIdsFile', 'country', 'language', 'brand', 'model', 'osVersion', 'appVersion'] as const;

export async function sendCommand(options: SendCommandOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  checkDeliveryOptions(options);
  if (MESSAGE_FLAGS.every((flag) => (options as unknown as Record<string, unknown>)[flag] === undefined)) {
    const command = options.dryRun ? 'dry-run' : 'send';
    throw usageError(
      `nothing to ${options.dryRun ? 'check' : 'send'}: a message needs content (-f message.json, --title/--desc, or -d key=value for data) and recipients (--all, --client-id, --client-ids-file, or targeting such as --country)`,
      `e.g. pushctl ${command} --all --title "Hello" --desc "It works", or pushctl ${command} -f message.json --client-ids-file ids.txt (pushctl ${command} --help lists every flag)`,
    );
  }
  const human = !options.json && !options.quiet;
  const errStyle = await styleFor(ctx.stderr, ctx.env);

  // 1. The message, checked before anything touches the network or the credentials.
  const assembled = assembleMessage(await readMessageInput(options, ctx));
  if (options.dryRun) assembled.message.dry_run = true;
  let body: PushMessage;
  let warnings: MessageIssue[] = [];
  let notes = assembled.notes;
  // Recipients from --client-id / --client-ids-file stay beside the body (a ClientIdStore for a file):
  // sendBatches puts each batch's IDs into the body as it sends it.
  const recipients = assembled.clientIds;
  if (options.validate === false) {
    const { message } = assembled;
    // An empty list goes out as it is, for the service to judge.
    body = (recipients?.length === 0 ? { ...message, condition: { ...(message.condition as object), client_ids: [] } } : message) as unknown as PushMessage;
  } else {
    const result = validateAssembledWithoutRecipients(assembled, { strict: options.strict === true });
    notes = [...notes, ...result.notes];
    await annotateIssues(result, options, ctx);
    if (!result.body) {
      if (options.json) ctx.stdout.write(`${JSON.stringify({ ok: false, exit_code: ExitCode.invalidMessage, errors: result.errors, warnings: result.warnings, notes }, null, 2)}\n`);
      else ctx.stderr.write(await describeValidation({ ...result, notes }, ctx));
      return ExitCode.invalidMessage;
    }
    body = result.body;
    warnings = result.warnings;
    if (human) ctx.stderr.write(formatIssueList('warnings:', warnings, errStyle, errStyle.warn));
  }

  // 2. Where to send it, and as whom.
  const loaded = await loadSettings(options, ctx);
  scrubber.add(loaded.settings.appSecret);
  for (const warning of loaded.warnings) ctx.stderr.write(`warning: ${warning}\n`);
  const settings = requireCredentials(loaded);
  // The service takes the raw secret in Authorization; a scheme in front of it is answered 21004.
  const scheme = /^(bearer|basic|token)\s+/i.exec(settings.appSecret);
  if (scheme) ctx.stderr.write(`warning: the app secret starts with "${scheme[1]} "; the service takes the raw secret in the Authorization header (a prefix is answered 21004 App Secret illegal): drop the prefix\n`);
  const baseUrl = checkBaseUrl(settings.baseUrl, { insecure: settings.insecure });
  const timeoutMs = parseDurationMs(settings.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw usageError(`timeout ${JSON.stringify(settings.timeout)} (${loaded.sources.timeout}) is not a duration`, 'use e.g. --timeout 500ms or --timeout 10s');
  }
  if (timeoutMs > MAX_TIMER_MS) {
    throw usageError(`timeout ${settings.timeout} (${loaded.sources.timeout}) is longer than the ${MAX_TIMER_MS} ms (about 24.8 days) a timer can hold`, 'use e.g. --timeout 10s');
  }
  const destination = describeDestination(baseUrl, loaded.sources.baseUrl ?? 'default', loaded.sources.appSecret, options.dryRun);
  if (destination.warning) ctx.stderr.write(destination.warning);
  if (human) ctx.stderr.write(destination.line);
  const proxy = choosePushProxy(options, loaded, baseUrl, ctx.env, scrubber);
  const client = await createPushClient({ baseUrl, appId: settings.appId, appSecret: settings.appSecret, timeoutMs, userAgent: `pushctl/${VERSION}` }, proxy);
  const requestedReport = options.report !== undefined ? await openReportFile(options.report, ctx.cwd) : undefined;

  // 3. Delivery: one request, or batches of client IDs under one shared rate limit, every step journaled.
  const clientIds: ClientIdSource | undefined = recipients ?? (body.condition?.type === 2 ? body.condition.client_ids : undefined);
  const batchSize = options.batchSize ?? MAX_BATCH_SIZE;
  const batched = (clientIds?.length ?? 0) > batchSize;
  let journal: RunJournal | undefined;
  try {
    journal =
      options.journal === false
        ? undefined
        : RunJournal.start({
            ...(typeof options.journal === 'string' ? { path: options.journal } : {}),
            env: ctx.env,
            cwd: ctx.cwd,
            filter: scrubber,
            version: VERSION,
            appId: settings.appId,
            host: client.url.host,
            dryRun: options.dryRun,
            argv: options.argv,
            message: body,
            clientIds,
            batches: planBatches(clientIds?.length ?? 0, batchSize),
          });
  } catch (error) {
    client.close();
    if (requestedReport) await discardReport(requestedReport);
    throw error;
  }
  let warnedRetry = false;
  const progress = await startProgress(ctx.stderr, human, options.dryRun ? 'dry run…' : 'sending…', ctx.env);
  // Completion times of requests (ms since the start), for an honest moving rate; only the last seconds matter.
  const doneAt: number[] = [];
  const started = monotonicNow();
  let results: BatchResult[];
  try {
    results = await sendBatches({
      client,
      body,
      ...(clientIds ? { clientIds } : {}),
      batchSize,
      concurrency: options.concurrency ?? 8,
      limiter: new RateLimiter({ rate: options.rate ?? 50 }),
      retry: { retryAmbiguous: options.retryAmbiguous === true, ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}) },
      signal: ctx.interrupt,
      ...(ctx.stopNow ? { stopNow: ctx.stopNow } : {}),
      onProgress: (p) => {
        const now = monotonicNow() - started;
        doneAt.push(now);
        if (doneAt.length > 4096) doneAt.splice(0, 2048);
        progress.update(`batches ${p.batchesDone}/${p.batchesTotal} · recipients ${p.recipientsDone}/${p.recipientsTotal} · ${movingRate(doneAt, now).toFixed(0)} req/s · ${(now / 1000).toFixed(1)} s`);
      },
      ...(journal ? { onAttemptStart: (b: number, a: number) => journal!.attemptStart(b, a) } : {}),
      onAttempt: (event) => {
        journal?.attempt(event);
        if (options.verbose) ctx.stderr.write(formatAttempt(event, client.describeRequest(event.body)));
        // Retries of an unreachable URL take up to half a minute: say what is wrong at once, not at the end.
        else if (human && !warnedRetry && event.retryInMs !== undefined && event.outcome.kind === 'retryable') {
          warnedRetry = true;
          ctx.stderr.write(`${errStyle.warn('retrying')}: ${event.outcome.reason}\n`);
        }
      },
    });
  } catch (error) {
    journal?.abandon();
    if (requestedReport) await discardReport(requestedReport);
    throw error;
  } finally {
    progress.stop();
    client.close();
  }

  // 4. The answer: summary, journal's closing record, report, and the command that finishes the job.
  const interrupted = ctx.interrupt.aborted;
  const exitCode = deliveryExitCode(results, interrupted);
  const summary = summarizeBatches(results);
  journal?.end(summary, exitCode, interrupted);
  // The unknown and not-sent IDs are counted, not listed: the report (and the journal) list them.
  const resend = summary.recipients.unknown + summary.recipients.not_sent;
  // Nothing may be lost: IDs whose fate is unknown or that were never sent are always written down.
  const report: ReportFile | undefined = requestedReport ?? (resend > 0 ? await openAutomaticReportFile(ctx.cwd) : undefined);
  if (report) await writeReport(report, results, scrubber);
  const reportPath = report?.path;
  // The journal holds every ID the resend needs, so it is what the resend command reads when there is one.
  const resendSource = journal?.path ?? reportPath;
  const resendLine = resend > 0 && resendSource !== undefined ? resendCommand(options.argv, resendSource, reportPath) : undefined;

  const elapsedSeconds = (monotonicNow() - started) / 1000;
  printDelivery({ results, summary, exitCode, dryRun: options.dryRun, batched, warnings, notes, reportPath, resend, resendLine, interrupted, elapsedSeconds }, options, ctx, errStyle);
  return exitCode;
}
