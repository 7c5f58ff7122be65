// `pushctl send` and `pushctl dry-run`: message → (--once: the earlier run) → destination → delivery → output.
// Each stage is a function of its own (commands/shared/); this file decides their order and what is printed.
import type { Ctx } from '../context.js';
import { usageError } from '../errors.js';
import { MAX_BATCH_SIZE } from '../client/batches.js';
import type { MessageInputOptions } from '../input/read-message-input.js';
import { messageFingerprint } from '../message/fingerprint.js';
import { dedupeNote } from '../message/assemble.js';
import { isGrowing } from '../message/recipients.js';
import type { MessageIssue, ValidationResult } from '../message/types.js';
import { runsDir } from '../journal/runs-dir.js';
import type { SettingsOptions } from '../settings/load-settings.js';
import { printDelivery, type DeliveryOutcome } from '../output/delivery.js';
import { formatIssueList } from '../output/issues.js';
import type { SecretScrubber } from '../output/redact.js';
import { printSkipped, type SkippedRun } from '../output/skipped-run.js';
import { styleFor, type Style } from '../output/style.js';
import { describeValidation } from '../output/validation.js';
import { envelopeText } from '../output/envelope.js';
import { ExitCode } from '../errors.js';
import { checkDeliveryOptions, deliveryTuning, type DeliveryOptions } from './shared/delivery-options.js';
import type { Delivery } from './shared/deliver.js';
import { asDeliveryOutcome } from './shared/delivery-outcome.js';
import { prepareMessage, type PreparedMessage } from './shared/prepare-message.js';
import { openReportFile } from './shared/report-file.js';
import { checkResumable, familyOf, findOnceRun, remainingOf } from './shared/resume.js';
import { dirname, resolve } from 'node:path';

export interface SendCommandOptions extends MessageInputOptions, SettingsOptions, DeliveryOptions {
  dryRun: boolean;
  /** The command line as typed, for the journal's header. */
  argv: readonly string[];
  strict?: boolean;
  /** false with --no-validate. */
  validate?: boolean;
  /** `--once <key>`: send this message to this audience once; a re-run finds the earlier run (docs/behaviour.md#once). */
  once?: string;
}

/** What a send came to, for output/ to render and for the action to read. */
export type SendOutcome =
  | { kind: 'invalid'; exitCode: number; validation: ValidationResult }
  | { kind: 'skipped'; exitCode: number; skipped: SkippedRun }
  | { kind: 'delivered'; exitCode: number; delivery: Delivery; warnings: MessageIssue[]; notes: MessageIssue[]; batched: boolean; resumedFrom?: string };

/** The flags that give a message content or recipients; with none of them there is nothing to send. */
const MESSAGE_FLAGS = ['file', 'title', 'desc', 'body', 'type', 'data', 'dataFile', 'style', 'icon', 'smallIcon', 'smallIconColor', 'buttonText', 'openApp', 'openUrl', 'openActivity', 'ttl', 'all', 'clientId', 'clientIdsFile', 'country', 'language', 'brand', 'model', 'osVersion', 'appVersion'] as const;

function checkSomethingToSend(options: SendCommandOptions): void {
  if (MESSAGE_FLAGS.some((flag) => (options as unknown as Record<string, unknown>)[flag] !== undefined)) return;
  const command = options.dryRun ? 'dry-run' : 'send';
  throw usageError(
    `nothing to ${options.dryRun ? 'check' : 'send'}: a message needs content (-f message.json, --title/--desc, or -d key=value for data) and recipients (--all, --client-id, --client-ids-file, or targeting such as --country)`,
    `e.g. pushctl ${command} --all --title "Hello" --desc "It works", or pushctl ${command} -f message.json --client-ids-file ids.txt (pushctl ${command} --help lists every flag)`,
  );
}

/** Runs a send and returns what happened; prints only progress and diagnostics on the way. */
export async function sendRun(options: SendCommandOptions, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<SendOutcome> {
  checkDeliveryOptions(options);
  checkSomethingToSend(options);
  if (options.once !== undefined && options.journal === false) {
    throw usageError('--once needs the run journal: it is how a re-run finds the earlier run', 'drop --no-journal (PUSHCTL_JOURNAL_DIR chooses where journals go)');
  }
  if (options.once !== undefined && options.once.trim() === '') throw usageError('--once needs a key', 'e.g. --once release-1.4.0');

  // 1. The message, checked before anything touches the network or the credentials. A long client-ID file
  // is still being read when this returns, so the first batch can leave before the last ID is read: only
  // with a journal, which records the plan as it grows, and not with --once, whose key is checked against
  // a fingerprint of every recipient before anything is sent.
  const stream = options.journal !== false && options.once === undefined;
  const prepared = await prepareMessage(options, ctx, { stream });
  if (!prepared.ok) return { kind: 'invalid', exitCode: ExitCode.invalidMessage, validation: prepared.validation };
  const { clientIds } = prepared;
  try {
    return await sendPrepared(prepared, options, ctx, scrubber, style);
  } finally {
    // Whatever stopped the send before it delivered (a bad secret, an unreachable proxy): read no further.
    if (isGrowing(clientIds)) clientIds.cancel();
  }
}

async function sendPrepared(prepared: Extract<PreparedMessage, { ok: true }>, options: SendCommandOptions, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<SendOutcome> {
  const { human } = deliveryTuning(options);
  const { body, clientIds, warnings, notes } = prepared;
  if (human) ctx.stderr.write(formatIssueList('warnings:', warnings, style, style.warn));

  // 2. --once: the same key already sent → nothing to do; left unfinished → finish it; another message → refuse.
  const once = options.once === undefined ? undefined : { key: options.once, fingerprint: messageFingerprint(body, clientIds) };
  const journalDir = typeof options.journal === 'string' ? dirname(resolve(ctx.cwd, options.journal)) : runsDir(ctx.env);
  const earlier = once ? findOnceRun(journalDir, once.key, options.dryRun) : undefined;
  let resume: { parent: string; clientIds: string[] | undefined; body: typeof body; inDoubt: number } | undefined;
  if (once && earlier) {
    if (earlier.header.fingerprint !== once.fingerprint) {
      throw usageError(
        `--once ${once.key}: run ${earlier.header.run_id} used this key for another message or audience (${earlier.path}); this run's message or recipients differ`,
        'use a new key for a new announcement, or send the same message file, variables and recipients as that run',
      );
    }
    checkResumable(earlier, earlier.header.run_id);
    const left = remainingOf(familyOf(earlier, ctx.env), options.includeUnknown === true);
    if (!left.any) {
      // Done: 0 when every recipient has it; otherwise the earlier run's verdict stands (rejected, or in doubt).
      const exitCode = left.inDoubt === 0 && left.rejected === 0 ? ExitCode.ok : (earlier.end?.exit_code ?? ExitCode.partial);
      return { kind: 'skipped', exitCode, skipped: { run: earlier, key: once.key, left } };
    }
    // The journal's own message: the fingerprint says it is the same, and it is what the earlier run sent.
    resume = { parent: earlier.header.run_id, clientIds: left.clientIds, body: earlier.header.message as typeof body, inDoubt: options.includeUnknown ? 0 : left.inDoubt };
    if (human) ctx.stderr.write(`--once ${once.key}: resuming run ${earlier.header.run_id} (${earlier.state}): ${left.clientIds ? `${left.clientIds.length} recipients` : (left.audience ?? 'its audience')} left to send\n`);
  }

  // 3. Where to send it, and as whom; the report path is checked before anything is sent.
  // Connecting and delivering load only now, from files that send and resend share (see scripts/build.mjs).
  const [{ connect }, { deliver }] = await Promise.all([import('./shared/connect.js'), import('./shared/deliver.js')]);
  const connection = await connect(options, ctx, scrubber, { dryRun: options.dryRun, human });
  const report = options.report !== undefined ? await openReportFile(options.report, ctx.cwd).catch((error) => {
    connection.client.close();
    throw error;
  }) : undefined;

  // 4. Delivery: one request, or batches under one shared rate limit, every step journaled.
  const recipients = resume ? resume.clientIds : clientIds;
  const batchSize = options.batchSize ?? MAX_BATCH_SIZE;
  const delivery = await deliver(
    {
      ...connection,
      body: resume?.body ?? body,
      ...(recipients ? { clientIds: recipients } : {}),
      dryRun: options.dryRun,
      argv: options.argv,
      batchSize,
      ...deliveryTuning(options),
      ...(once ? { once } : {}),
      ...(resume ? { parent: resume.parent, inheritedInDoubt: resume.inDoubt } : {}),
      ...(report ? { report } : {}),
      ...(isGrowing(recipients) && options.clientIdsFile !== undefined ? { input: options.clientIdsFile === '-' ? '-' : resolve(ctx.cwd, options.clientIdsFile) } : {}),
    },
    ctx,
    scrubber,
    style,
  );
  // Repeats in a list read while sending are known only at its end.
  const repeats = isGrowing(recipients) ? (recipients.list?.duplicates ?? 0) : 0;
  return {
    kind: 'delivered',
    exitCode: delivery.exitCode,
    delivery,
    warnings,
    notes: repeats > 0 ? [...notes, dedupeNote(repeats)] : notes,
    batched: (recipients?.length ?? 0) > batchSize,
    ...(resume ? { resumedFrom: resume.parent } : {}),
  };
}

/** The outcome in output/'s terms. */
export function deliveryOutcome(outcome: Extract<SendOutcome, { kind: 'delivered' }>): DeliveryOutcome {
  const { delivery, batched, warnings, notes, resumedFrom } = outcome;
  return asDeliveryOutcome(delivery, { batched, warnings, notes, ...(resumedFrom !== undefined ? { resumedFrom } : {}) });
}

export async function sendCommand(options: SendCommandOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  const style = await styleFor(ctx.stderr, ctx.env);
  const outcome = await sendRun(options, ctx, scrubber, style);
  switch (outcome.kind) {
    case 'invalid': {
      const { validation } = outcome;
      if (options.json) ctx.stdout.write(envelopeText(outcome.exitCode, { errors: validation.errors, warnings: validation.warnings, notes: validation.notes }));
      else ctx.stderr.write(await describeValidation(validation, ctx));
      break;
    }
    case 'skipped':
      printSkipped(outcome.skipped, outcome.exitCode, options, ctx, style);
      break;
    case 'delivered':
      printDelivery(deliveryOutcome(outcome), options, ctx, style);
      break;
  }
  return outcome.exitCode;
}
