// `pushctl send` and `pushctl dry-run`: assemble → validate → settings → deliver → report.
import type { Ctx } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { readMessageInput, type MessageInputOptions } from '../input/read-message-input.js';
import { assembleMessage } from '../message/assemble.js';
import { parseDurationMs } from '../message/duration.js';
import { validateAssembledWithoutRecipients } from '../message/validate-assembled.js';
import type { MessageIssue, PushMessage } from '../message/types.js';
import { createPushClient } from '../client/proxy-agent.js';
import { choosePushProxy } from './proxy-choice.js';
import { RateLimiter } from '../client/rate-limiter.js';
import { MAX_BATCH_SIZE, type ClientIdSource } from '../client/batches.js';
import { summarizeBatches } from '../client/report.js';
import { sendBatches, type BatchResult } from '../client/send-batches.js';
import { DEFAULT_RETRY_POLICY } from '../client/retry.js';
import { loadSettings, type SettingsOptions } from '../settings/load-settings.js';
import { requireCredentials } from '../settings/resolve.js';
import { checkBaseUrl } from '../settings/check-base-url.js';
import type { SecretScrubber } from '../output/redact.js';
import { styleFor } from '../output/style.js';
import { startProgress } from '../output/progress.js';
import { formatIssueList } from '../output/issues.js';
import { formatAttempt, printDelivery } from '../output/delivery.js';
import { describeValidation } from './validate.js';
import { resendCommand } from './resend-command.js';
import { openAutomaticReportFile, openReportFile, writeReport } from './report-file.js';
import { VERSION } from '../version.js';
import { annotateIssues } from '../ci/annotate-issues.js';

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
}

/** The exit status of a delivery (SPEC section 2): the one place batch outcomes become a number. */
export function deliveryExitCode(results: readonly BatchResult[], interrupted: boolean): number {
  const count = (status: BatchResult['status']) => results.filter((r) => r.status === status).length;
  const accepted = count('accepted');
  if (accepted === results.length) return ExitCode.ok;
  if (accepted > 0) return ExitCode.partial;
  // Nothing went out because the user pressed Ctrl-C first: the shell's convention for SIGINT.
  if (interrupted && count('not_sent') === results.length && results.every((r) => r.attempts === 0)) return 130;
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

export async function sendCommand(options: SendCommandOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  checkDeliveryOptions(options);
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
  const baseUrl = checkBaseUrl(settings.baseUrl, { insecure: settings.insecure });
  const timeoutMs = parseDurationMs(settings.timeout);
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw usageError(`timeout ${JSON.stringify(settings.timeout)} (${loaded.sources.timeout}) is not a duration`, 'use e.g. --timeout 500ms or --timeout 10s');
  }
  const proxy = choosePushProxy(options, loaded, baseUrl, ctx.env, scrubber);
  const client = await createPushClient({ baseUrl, appId: settings.appId, appSecret: settings.appSecret, timeoutMs, userAgent: `pushctl/${VERSION}` }, proxy);
  const requestedReport = options.report !== undefined ? await openReportFile(options.report, ctx.cwd) : undefined;

  // 3. Delivery: one request, or batches of client IDs under one shared rate limit.
  const clientIds: ClientIdSource | undefined = recipients ?? (body.condition?.type === 2 ? body.condition.client_ids : undefined);
  const batched = (clientIds?.length ?? 0) > (options.batchSize ?? MAX_BATCH_SIZE);
  const progress = await startProgress(ctx.stderr, human, options.dryRun ? 'dry run…' : 'sending…');
  const started = performance.now();
  let results: BatchResult[];
  try {
    results = await sendBatches({
      client,
      body,
      ...(clientIds ? { clientIds } : {}),
      batchSize: options.batchSize ?? MAX_BATCH_SIZE,
      concurrency: options.concurrency ?? 8,
      limiter: new RateLimiter({ rate: options.rate ?? 50 }),
      retry: { retryAmbiguous: options.retryAmbiguous === true, ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}) },
      signal: ctx.interrupt,
      onProgress: (p) => {
        const seconds = (performance.now() - started) / 1000;
        progress.update(`batches ${p.batchesDone}/${p.batchesTotal} · recipients ${p.recipientsDone}/${p.recipientsTotal} · ${(p.requests / Math.max(seconds, 0.001)).toFixed(0)} req/s`);
      },
      ...(options.verbose ? { onAttempt: (event) => ctx.stderr.write(formatAttempt(event, client.describeRequest(event.body))) } : {}),
    });
  } finally {
    progress.stop();
    client.close();
  }

  // 4. The answer: summary, report, and the command that finishes the job if anything is left.
  const interrupted = ctx.interrupt.aborted;
  const exitCode = deliveryExitCode(results, interrupted);
  const summary = summarizeBatches(results);
  // The unknown and not-sent IDs are counted, not listed: the report lists them.
  const resend = summary.recipients.unknown + summary.recipients.not_sent;
  // Nothing may be lost: IDs whose fate is unknown or that were never sent are always written down.
  const report = requestedReport ?? (resend > 0 ? await openAutomaticReportFile(ctx.cwd) : undefined);
  if (report) await writeReport(report, results);
  const reportPath = report?.path;
  const resendLine = resend > 0 && reportPath !== undefined ? resendCommand(options.argv, reportPath) : undefined;

  printDelivery({ results, summary, exitCode, dryRun: options.dryRun, batched, warnings, notes, reportPath, resend, resendLine }, options, ctx, errStyle);
  return exitCode;
}
