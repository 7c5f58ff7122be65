// `pushctl resend <run>`: finish a run from its journal. Sends the run's remaining recipients with the
// journal's own validated message (never re-reading message files: a changed or relative `-f` cannot change
// what is sent), to the run's app and destination unless flags override, and writes a journal of its own
// that names the first. Not-sent recipients only by default; `--include-in-doubt` adds those in doubt.
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import type { PushMessage } from '../../message/types.js';
import { familyRoot, readRun, readRunLeft, type RunView } from '../../journal/read-run.js';
import { runsDir } from '../../journal/runs-dir.js';
import type { Lease } from '../../journal/ownership.js';
import { escapeControl } from '../../output/escape-control.js';
import { freshRunId, familyLockName, journalBeside, locksDir, ownFamily } from '../shared/own-run.js';
import { resendSettings } from '../shared/resend-destination.js';
import { RunConfig } from '../shared/run-config.js';
import { dirname } from 'node:path';
import { printResend, type ResendOutcome } from '../../output/resend.js';
import { styleFor } from '../../output/style.js';
import { deliveryTuning } from '../shared/delivery-options.js';
import type { CommandCtx } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { resendOptionsSchema, type ResendOptions } from './options.js';
import { connect } from '../shared/connect.js';
import { deliver } from '../shared/deliver.js';
import { resendVariants } from '../shared/resend-variants.js';
import { locateRun } from '../shared/locate-run.js';
import { openReportFile } from '../shared/report-file.js';
import { checkResumable, checkSameInput, familyRuns, inputGivenAgainBy, notRunning, remainingOf, replacedBy, type RunInput } from '../shared/resume.js';
import { readMessageInput } from '../../input/read-message-input.js';
import { usageError } from '../../errors.js';
import { counted } from '../../counted.js';
import { voucherFor } from '../shared/vouched-flags.js';
import { settingsFlags } from '../shared/resend-command.js';

export async function resend(options: ResendOptions, ctx: CommandCtx): Promise<ResendOutcome> {
  const { human } = deliveryTuning(options);
  const { path, ref } = locateRun(options.run, ctx);
  const locks = locksDir(ctx.env);
  // Own the run's family before reading what it left: a second resend, or the run itself still sending,
  // would otherwise send the same recipients (docs/behaviour.md#ownership). A preview sends nothing.
  const first = readRun(path, locks, false);
  // A run of several targets is resent whole: every target's remainder (docs/behaviour.md#targets).
  if (first.header.targets !== undefined && options.clientIdsFile === undefined) {
    const { resendTargets } = await import('../shared/targets-resend.js');
    return resendTargets({ ...options, argv: ctx.argv }, first.header.targets, dirname(path), ctx, ctx.scrubber, ctx.style ?? (await styleFor(ctx.stderr, ctx.env)));
  }
  const runId = freshRunId(ctx.env);
  const leases = options.dryRun ? [] : await ownFamily(familyLockName(familyRoot([dirname(path), runsDir(ctx.env)], first)), runId, { what: `run ${escapeControl(first.header.run_id)}`, wait: options.wait !== false }, path, ctx);
  try {
    return await resendOwned(options, { path, ref, runId, leases }, ctx, human);
  } finally {
    for (const lease of leases.reverse()) lease.release();
  }
}

async function resendOwned(options: ResendOptions, owned: { path: string; ref: string; runId: string; leases: Lease[] }, ctx: CommandCtx, human: boolean): Promise<ResendOutcome> {
  const { scrubber } = ctx;
  const { path, ref } = owned;
  const withInput = options.clientIdsFile !== undefined;
  const run = withInput ? readRun(path, locksDir(ctx.env)) : readRunLeft(path, locksDir(ctx.env));
  const members = familyRuns(run, ctx.env);
  checkResumable(run, ref, withInput, inputGivenAgainBy(run, members), replacedBy(run, ctx.env), voucherFor(path, ctx, settingsFlags(ctx.argv)));
  const input = withInput ? await readRunInput(run, options.clientIdsFile!, ctx) : undefined;
  const family = notRunning(members);
  const left = remainingOf(family, options.includeInDoubt === true, input);
  const { header } = run;
  // Where it goes, checked against the user's settings before a preview or a send (nothing left: no check).
  const loaded = options.dryRun || left.any ? await resendSettings(options, header, ctx, new RunConfig(options, ctx)) : undefined;

  if (options.dryRun || !left.any || !loaded) {
    const destination = loaded ? { baseUrl: loaded.settings.baseUrl, source: loaded.sources.baseUrl ?? 'default region' } : undefined;
    return { kind: 'preview', exitCode: ExitCode.ok, header, left, dryRun: options.dryRun === true, ...(destination ? { destination } : {}) };
  }

  const connection = await connect(options, ctx, scrubber, { dryRun: header.dry_run, human }, loaded);
  const runIds = [owned.runId, ...family.map((member) => member.header.run_id)];
  const report = options.report !== undefined ? await openReportFile(options.report, ctx.cwd, { force: options.force === true, runIds }).catch((error: unknown) => {
    connection.client.close();
    throw error;
  }) : undefined;
  if (human) ctx.stderr.write(`resending run ${escapeControl(header.run_id)}: ${left.clientIds ? counted(left.clientIds.length, 'recipient') : left.audience}${options.includeInDoubt && left.inDoubt > 0 ? ` (${left.inDoubt} of them in doubt, included by --include-in-doubt)` : ''}\n`);
  const batchSize = options.batchSize ?? MAX_BATCH_SIZE;
  const delivery = await deliver(
    {
      ...connection,
      body: header.message as PushMessage,
      ...resendVariants(header, left),
      dryRun: header.dry_run,
      argv: ctx.argv,
      batchSize,
      ...deliveryTuning(options),
      ...journalBeside(owned.path, owned.runId, options.journal, ctx.env),
      // A resend keeps the run's --once key, so a CI re-run after it finds the newest state.
      ...(header.once !== undefined && header.fingerprint !== undefined ? { once: { key: header.once, fingerprint: header.fingerprint } } : {}),
      parent: header.run_id,
      ...(owned.leases[0] ? { runId: owned.runId, lock: owned.leases[0].name } : {}),
      ...(options.includeInDoubt ? {} : { inheritedInDoubt: left.inDoubt }),
      ...(report ? { report } : {}),
      ...(owned.leases.length > 0 ? { leases: owned.leases } : {}),
    },
    ctx,
    scrubber,
    ctx.style ?? (await styleFor(ctx.stderr, ctx.env)),
  );
  return { kind: 'delivered', exitCode: delivery.exitCode, delivery };
}

/** The input of a run stopped before it read all of it, given again: checked to be that input, and where the run stopped in it. */
async function readRunInput(run: RunView, file: string, ctx: Ctx): Promise<RunInput> {
  const { recipients } = await readMessageInput({ clientIdsFile: file }, ctx);
  if (!recipients || recipients.fromReport) {
    throw usageError(`--client-ids-file ${file} is a report or a journal; a resend of run ${run.header.run_id} needs the client-ID file the run read`, `give that file${run.header.input !== undefined && run.header.input !== '-' ? ` (${run.header.input})` : ''}`);
  }
  const input = { ids: recipients.ids, languages: recipients.languages };
  checkSameInput(run, input, file);
  return input;
}

export const command = runnable(resendOptionsSchema, resend, printResend);
