// `pushctl send` (and `pushctl dry-run`, a send with "dry_run": true): message → (--once: the earlier run) →
// destination → delivery → outcome. Each stage is a function of its own (commands/shared/); this file decides
// their order; output/send.ts prints the outcome.
import { ExitCode, usageError } from '../../errors.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import { isGrowing } from '../../message/recipients.js';
import { formatIssueList } from '../../output/issues.js';
import { styleFor } from '../../output/style.js';
import { printSend, type SendOutcome } from '../../output/send.js';
import type { CommandCtx } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { messageOptionsSchema } from '../shared/message-options.js';
import { sendOptionsSchema, type SendOptions } from './options.js';
import { deliveryTuning } from '../shared/delivery-options.js';
import { deliver } from '../shared/deliver.js';
import { arrangeVariants } from '../shared/variant-delivery.js';
import { resendVariants } from '../shared/resend-variants.js';
import { prepareMessage, type PreparedMessage } from '../shared/prepare-message.js';
import { applyAudience } from '../shared/apply-audience.js';
import { openReportFile } from '../shared/report-file.js';
import { connect } from '../shared/connect.js';
import { RunConfig } from '../shared/run-config.js';
import type { Lease } from '../../journal/ownership.js';
import { answerForKey } from '../shared/key-outcome.js';
import { resolve } from 'node:path';
import { targetProfiles } from '../shared/target-list.js';
import { claimRun } from '../shared/claim.js';
import { onceClaimLine } from '../shared/once-words.js';

export type { SendOutcome };

/** The flags that give a message content or recipients; with none of them there is nothing to send. */
const NOT_CONTENT = new Set(['var', 'strict', 'placeholderScopes']);
const MESSAGE_FLAGS = Object.keys(messageOptionsSchema.shape).filter((key) => !NOT_CONTENT.has(key));

function checkSomethingToSend(options: SendOptions): void {
  if (MESSAGE_FLAGS.some((flag) => Object.entries(options).some(([key, value]) => key === flag && value !== undefined))) return;
  const command = options.dryRun ? 'dry-run' : 'send';
  throw usageError(
    `nothing to ${options.dryRun ? 'check' : 'send'}: a message needs content (-f message.json, --title/--desc, or -d key=value for data) and recipients (--all, --client-id, --client-ids-file, or targeting such as --country)`,
    `e.g. pushctl ${command} --all --title "Hello" --desc "It works", or pushctl ${command} -f message.json --client-ids-file ids.txt (pushctl ${command} --help lists every flag)`,
  );
}

/** Runs a send and returns what happened; prints only progress and diagnostics on the way. */
export async function send(given: SendOptions, ctx: CommandCtx): Promise<SendOutcome> {
  checkSomethingToSend(given);
  // The config file, read when first needed and then once for the whole run (the audience, every target).
  const config = new RunConfig(given, ctx);
  // A named audience becomes the recipient flags it stands for: everything after sees only those.
  const options = { ...(await applyAudience(given, ctx, config)), dryRun: given.dryRun === true };

  // 1. The message, checked before anything touches the network or the credentials. A long client-ID file
  // is still being read when this returns, so the first batch can leave before the last ID is read: only
  // with a journal, which records the plan as it grows, and not with --once, whose key is checked against
  // a fingerprint of every recipient before anything is sent.
  // Several targets (docs/behaviour.md#targets) send one list to each: it is read whole first.
  const profiles = targetProfiles(options.profile, ctx.env);
  const stream = options.journal !== false && options.once === undefined && profiles === undefined;
  const prepared = await prepareMessage(options, ctx, { stream });
  if (!prepared.ok) return { kind: 'invalid', exitCode: ExitCode.invalidMessage, validation: prepared.validation };
  const { clientIds } = prepared;
  try {
    if (profiles) {
      const { sendTargets } = await import('../shared/targets.js');
      const style = ctx.style ?? (await styleFor(ctx.stderr, ctx.env));
      const targets = await sendTargets(prepared, profiles, { ...options, argv: ctx.argv }, ctx, ctx.scrubber, style, config);
      return { kind: 'targets', exitCode: targets.exitCode, targets };
    }
    return await sendPrepared(prepared, options, ctx, config);
  } finally {
    // Whatever stopped the send before it delivered (a bad secret, an unreachable proxy): read no further.
    if (isGrowing(clientIds)) clientIds.cancel();
  }
}

async function sendPrepared(prepared: Extract<PreparedMessage, { ok: true }>, options: SendOptions & { dryRun: boolean }, ctx: CommandCtx, config: RunConfig): Promise<SendOutcome> {
  const tuning = deliveryTuning(options);
  const { human } = tuning;
  const { scrubber } = ctx;
  const style = ctx.style ?? (await styleFor(ctx.stderr, ctx.env));
  const { notes } = prepared;
  // Variants become lanes of client IDs or one request per language, refused for every device (docs/behaviour.md#variants).
  const arranged = arrangeVariants(prepared, options.batchSize ?? MAX_BATCH_SIZE);
  const { body, clientIds, variants } = arranged;
  const warnings = [...prepared.warnings, ...arranged.warnings];
  if (human) ctx.stderr.write(formatIssueList('warnings:', warnings, style, style.warn));

  // 2. Where to send it, and as whom: a --once key belongs to an app at a destination. The report path is
  // checked before anything is sent.
  // The destination is said only once the send is sure to go: a --once key found done sends nothing, and a
  // --report path refused (exit 2) sent nothing either.
  const connection = await connect(options, ctx, scrubber, { dryRun: options.dryRun, human, announce: false }, config);
  const leases: Lease[] = [];
  let delivering = false;
  try {
    // 3. Own the key and the run, then read what earlier runs did: nobody else can be sending it now.
    const claim = options.journal === false ? undefined : await claimRun(options, variants ? { ...body, variants: Object.fromEntries(variants.messages) } : body, clientIds, connection, leases, ctx);
    if (claim?.skipped) return options.report === undefined ? claim.skipped : await withFamilyReport(claim.skipped, options.report, options.force === true, ctx);
    // A re-run may replace the report of its own family; any other existing file only with --force.
    const runIds = claim ? [claim.runId, ...(claim.resume?.family ?? [])] : [];
    const report = options.report !== undefined ? await openReportFile(options.report, ctx.cwd, { force: options.force === true, runIds }) : undefined;
    if (human) ctx.stderr.write(connection.announcement);
    const resume = claim?.resume;
    const claimLine = claim && options.once !== undefined ? onceClaimLine(options.once, claim) : undefined;
    if (claimLine && human) ctx.stderr.write(claimLine);

    // 4. Delivery: one request, or batches under one shared rate limit, every step journaled. Should another
    // process take the run over (this one stopped refreshing its lock), no further request starts.
    const resent = resume ? resendVariants(resume, resume) : undefined;
    const recipients = resent ? resent.clientIds : clientIds;
    const sentVariants = resent ? resent.variants : variants;
    const batchSize = options.batchSize ?? MAX_BATCH_SIZE;
    delivering = true;
    const delivery = await deliver(
      {
        ...connection,
        body: resume?.body ?? body,
        ...(recipients ? { clientIds: recipients } : {}),
        ...(sentVariants ? { variants: sentVariants } : {}),
        dryRun: options.dryRun,
        argv: ctx.argv,
        batchSize,
        ...tuning,
        ...(claim?.once ? { once: claim.once } : {}),
        ...(claim ? { runId: claim.runId, lock: claim.lock } : {}),
        ...(resume ? { parent: resume.parent, inheritedInDoubt: resume.inDoubt } : {}),
        ...(claim?.afresh !== undefined ? { replaces: claim.afresh } : {}),
        ...(report ? { report } : {}),
        ...(report && resume ? { reportResults: (await import('../shared/family-report.js')).joinedToFamily(resume.path, ctx.env) } : {}),
        ...(isGrowing(recipients) && options.clientIdsFile !== undefined ? { input: options.clientIdsFile === '-' ? '-' : resolve(ctx.cwd, options.clientIdsFile) } : {}),
        leases,
        warnings,
        notes,
      },
      ctx,
      scrubber,
      style,
    );
    const answer = resume ? answerForKey(delivery, ctx.env) : delivery;
    return { kind: 'delivered', exitCode: answer.exitCode, delivery: answer };
  } finally {
    // deliver closes the client itself; a run that never got there closes it here.
    if (!delivering) connection.client.close();
    for (const lease of leases.reverse()) lease.release();
  }
}

/** A key found done, asked for a report: the family's, which is what the key stands for (the action's re-run writes the same). */
async function withFamilyReport(outcome: SendOutcome, path: string, force: boolean, ctx: CommandCtx): Promise<SendOutcome> {
  if (outcome.kind !== 'skipped') return outcome;
  const { writeFamilyReport } = await import('../shared/family-report.js');
  const report = await writeFamilyReport(outcome.skipped.run, path, ctx, ctx.scrubber, force);
  return { ...outcome, skipped: { ...outcome.skipped, report } };
}

/** A command that takes send's options (checked by its schema) and prints send's outcome: send, and dry-run. */
export const sendShaped = (run: (options: SendOptions, ctx: CommandCtx) => Promise<SendOutcome>) => runnable(sendOptionsSchema, run, printSend);

export const command = sendShaped(send);
