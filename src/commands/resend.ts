// `pushctl resend <run>`: finish a run from its journal. Sends the run's remaining recipients with the
// journal's own validated message (never re-reading message files: a changed or relative `-f` cannot change
// what is sent), to the run's app and destination unless flags override, and writes a journal of its own
// that names the first. Not-sent recipients only by default; `--include-unknown` adds those in doubt.
import type { Ctx } from '../context.js';
import { ExitCode } from '../errors.js';
import { MAX_BATCH_SIZE } from '../client/batches.js';
import type { PushMessage } from '../message/types.js';
import { readRunWhole } from '../journal/read-run.js';
import type { SettingsOptions } from '../settings/load-settings.js';
import { printDelivery } from '../output/delivery.js';
import type { SecretScrubber } from '../output/redact.js';
import { formatResendPreview, resendPreviewDocument } from '../output/resend-preview.js';
import { styleFor } from '../output/style.js';
import { checkDeliveryOptions, deliveryTuning, type DeliveryOptions } from './shared/delivery-options.js';
import { asDeliveryOutcome } from './shared/delivery-outcome.js';
import { locateRun } from './shared/locate-run.js';
import { openReportFile } from './shared/report-file.js';
import { checkResumable, checkSameInput, familyOf, remainingOf, type ReadRun } from './shared/resume.js';
import { readMessageInput } from '../input/read-message-input.js';
import type { ClientIdSource } from '../message/recipients.js';
import { usageError } from '../errors.js';

export interface ResendOptions extends SettingsOptions, DeliveryOptions {
  run: string;
  /** The run's own client-ID file again, for a run stopped before it read all of it. */
  clientIdsFile?: string;
  /** Show what would be sent, send nothing. */
  dryRun?: boolean;
  argv: readonly string[];
}

export async function resendCommand(options: ResendOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<number> {
  checkDeliveryOptions(options);
  const style = await styleFor(ctx.stderr, ctx.env);
  const { human } = deliveryTuning(options);
  const { path, ref } = locateRun(options.run, ctx);
  const run = readRunWhole(path);
  checkResumable(run, ref, options.clientIdsFile !== undefined);
  const input = options.clientIdsFile === undefined ? undefined : await readRunInput(run, options.clientIdsFile, ctx);
  const left = remainingOf(familyOf(run, ctx.env), options.includeUnknown === true, input);
  const { header } = run;

  if (options.dryRun || !left.any) {
    if (options.json) ctx.stdout.write(`${JSON.stringify(resendPreviewDocument(header, left, options.dryRun === true), null, 2)}\n`);
    else if (!options.quiet) ctx.stderr.write(formatResendPreview(header, left, options.dryRun === true));
    return ExitCode.ok;
  }

  // The run's app and destination, unless flags say otherwise; the secret comes from the usual places.
  const settings: SettingsOptions = {
    ...options,
    appId: options.appId ?? header.app_id,
    ...(options.baseUrl === undefined && options.region === undefined ? { baseUrl: header.base_url ?? `https://${header.host}` } : {}),
  };
  // Connecting and delivering load only now, from files that send and resend share (see scripts/build.mjs).
  const [{ connect }, { deliver }] = await Promise.all([import('./shared/connect.js'), import('./shared/deliver.js')]);
  const connection = await connect(settings, ctx, scrubber, { dryRun: header.dry_run, human });
  const report = options.report !== undefined ? await openReportFile(options.report, ctx.cwd) : undefined;
  if (human) ctx.stderr.write(`resending run ${header.run_id}: ${left.clientIds ? `${left.clientIds.length} recipients` : left.audience}${options.includeUnknown && left.inDoubt > 0 ? ` (${left.inDoubt} of them in doubt, included by --include-unknown)` : ''}\n`);
  const batchSize = options.batchSize ?? MAX_BATCH_SIZE;
  const delivery = await deliver(
    {
      ...connection,
      body: header.message as PushMessage,
      ...(left.clientIds ? { clientIds: left.clientIds } : {}),
      dryRun: header.dry_run,
      argv: options.argv,
      batchSize,
      ...deliveryTuning(options),
      // A resend keeps the run's --once key, so a CI re-run after it finds the newest state.
      ...(header.once !== undefined && header.fingerprint !== undefined ? { once: { key: header.once, fingerprint: header.fingerprint } } : {}),
      parent: header.run_id,
      ...(options.includeUnknown ? {} : { inheritedInDoubt: left.inDoubt }),
      ...(report ? { report } : {}),
    },
    ctx,
    scrubber,
    style,
  );
  printDelivery(asDeliveryOutcome(delivery, { batched: (left.clientIds?.length ?? 0) > batchSize, warnings: [], notes: [], resumedFrom: header.run_id }), options, ctx, style);
  return delivery.exitCode;
}

/** The input of a run stopped before it read all of it, given again: checked to be that input, and where the run stopped in it. */
async function readRunInput(run: ReadRun, file: string, ctx: Ctx): Promise<{ ids: ClientIdSource; after: number }> {
  const { recipients } = await readMessageInput({ clientIdsFile: file }, ctx);
  if (!recipients || recipients.fromReport) {
    throw usageError(`--client-ids-file ${file} is a report or a journal; a resend of run ${run.header.run_id} needs the client-ID file the run read`, `give that file${run.header.input !== undefined && run.header.input !== '-' ? ` (${run.header.input})` : ''}`);
  }
  return { ids: recipients.ids, after: checkSameInput(run, recipients.ids, file) };
}
