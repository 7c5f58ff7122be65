// `pushctl send` (and `pushctl dry-run`, a send with "dry_run": true): message → (--once: the earlier run) →
// destination → delivery → outcome. Each stage is a function of its own (commands/shared/); this file decides
// their order; output/send.ts prints the outcome.
import type { Ctx } from '../../context.js';
import { usageError } from '../../errors.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import { isGrowing } from '../../message/recipients.js';
import { runsDir } from '../../journal/runs-dir.js';
import { formatIssueList } from '../../output/issues.js';
import { styleFor } from '../../output/style.js';
import { printSend, type SendOutcome } from '../../output/send.js';
import type { CommandCtx } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { messageOptionsSchema } from '../shared/message-options.js';
import { sendOptionsSchema, type SendOptions } from './options.js';
import { ExitCode } from '../../errors.js';
import { deliveryTuning } from '../shared/delivery-options.js';
import { deliver } from '../shared/deliver.js';
import { arrangeVariants } from '../shared/variant-delivery.js';
import { resendVariants } from '../shared/resend-variants.js';
import { prepareMessage, type PreparedMessage } from '../shared/prepare-message.js';
import { applyAudience } from '../shared/apply-audience.js';
import { openReportFile } from '../shared/report-file.js';
import { checkResumable, familyOf, findOnceRun, remainingOf, sentAny } from '../shared/resume.js';
import { familyLockName, freshRunId, locksDir, onceLockName, own } from '../shared/own-run.js';
import { connect, type Connection } from '../shared/connect.js';
import { RunConfig } from '../shared/run-config.js';
import type { Lease } from '../../journal/ownership.js';
import { familyRoot, readRunLeft } from '../../journal/read-run.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import { familyOutcome } from '../../journal/family-outcome.js';
import { answerForKey, familyExitCode } from '../shared/key-outcome.js';
import type { PushMessage } from '../../message/types.js';
import type { HeaderRecord } from '../../journal/records.js';
import type { ClientIdSource } from '../../message/recipients.js';
import { escapeControl } from '../../output/escape-control.js';
import { resolve } from 'node:path';
import { targetProfiles } from '../shared/target-list.js';
import type { RunClaim } from '../shared/claim.js';
import { counted } from '../../counted.js';
import { onceClaimLine } from '../shared/once-words.js';
import { familyFlags, resendRun, settingsFlags } from '../shared/resend-command.js';
import { voucherFor, type Voucher } from '../shared/vouched-flags.js';

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
  if (options.once !== undefined && options.journal === false) {
    throw usageError('--once needs the run journal: it is how a re-run finds the earlier run', 'drop --no-journal (PUSHCTL_JOURNAL_DIR chooses where journals go)');
  }
  if (options.once !== undefined && options.once.trim() === '') throw usageError('--once needs a key', 'e.g. --once release-1.4.0');
  if (options.once !== undefined && typeof options.journal === 'string') {
    // A --journal file stands alone; the runs of a key are found in the journal directory.
    throw usageError('--once finds earlier runs in the journal directory; --journal names one file outside it', 'drop --journal, and choose the directory with PUSHCTL_JOURNAL_DIR if needed');
  }

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
      const targets = await sendTargets(prepared, profiles, { ...options, argv: ctx.argv }, ctx, ctx.scrubber, style, { claimRun, config });
      return { kind: 'targets', exitCode: targets.exitCode, targets };
    }
    return await sendPrepared(prepared, options, ctx, config);
  } finally {
    // Whatever stopped the send before it delivered (a bad secret, an unreachable proxy): read no further.
    if (isGrowing(clientIds)) clientIds.cancel();
  }
}

async function sendPrepared(prepared: Extract<PreparedMessage, { ok: true }>, options: SendOptions & { dryRun: boolean }, ctx: CommandCtx, config: RunConfig): Promise<SendOutcome> {
  const { human } = deliveryTuning(options);
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
        ...deliveryTuning(options),
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

type Claim = RunClaim<SendOutcome>;

/** A key found done, asked for a report: the family's, which is what the key stands for (the action's re-run writes the same). */
async function withFamilyReport(outcome: SendOutcome, path: string, force: boolean, ctx: CommandCtx): Promise<SendOutcome> {
  if (outcome.kind !== 'skipped') return outcome;
  const { writeFamilyReport } = await import('../shared/family-report.js');
  const report = await writeFamilyReport(outcome.skipped.run, path, ctx, ctx.scrubber, force);
  return { ...outcome, skipped: { ...outcome.skipped, report } };
}

/**
 * Owns what this run is about to send (docs/behaviour.md#ownership): with --once, the key (waiting for a
 * process that owns it), then the family of the run found with it; else a new run's own family. The leases
 * go into `leases` for the caller to release.
 */
export async function claimRun(options: SendOptions & { dryRun: boolean }, body: object, clientIds: ClientIdSource | undefined, connection: Connection, leases: Lease[], ctx: Ctx & { argv?: readonly string[] }): Promise<Claim> {
  const runId = freshRunId(ctx.env);
  const wait = options.wait !== false;
  if (options.once === undefined) {
    const lock = familyLockName(runId);
    leases.push(await own(lock, runId, { what: `run ${runId}`, wait: true, journalOptional: true }, ctx));
    return { runId, lock };
  }
  const baseUrl = journalBaseUrl(connection.baseUrl);
  // Loaded here, not with the command: its node:crypto costs every send without --once a millisecond or two.
  const { messageFingerprint, sameFingerprint } = await import('../../message/fingerprint.js');
  const once = { key: options.once, fingerprint: messageFingerprint(body, clientIds) };
  leases.push(await own(onceLockName(once.key, connection.appId, baseUrl, options.dryRun), runId, { what: `--once ${escapeControl(once.key)}`, wait }, ctx));
  const dir = runsDir(ctx.env);
  const found = findOnceRun(dir, once.key, options.dryRun, { appId: connection.appId, baseUrl });
  if (!found) {
    const lock = familyLockName(runId);
    leases.push(await own(lock, runId, { what: `run ${runId}`, wait: true }, ctx));
    return { runId, lock, once };
  }
  if (!sameFingerprint(found.header.fingerprint, body, clientIds, once.fingerprint)) {
    throw usageError(
      `--once ${escapeControl(once.key)}: run ${escapeControl(found.header.run_id)} used this key for another message or audience (${found.path}); this run's message or recipients differ`,
      otherUseHint(found, ctx.env, voucherFor(found.path, ctx, settingsFlags(ctx.argv ?? []))),
    );
  }
  const lock = familyLockName(familyRoot([dir], found));
  leases.push(await own(lock, runId, { what: `run ${escapeControl(found.header.run_id)}`, wait }, ctx));
  const earlier = readRunLeft(found.path, locksDir(ctx.env));
  if (earlier.incomplete && earlier.state !== 'running' && !sentAny(earlier)) {
    // Killed while it wrote its plan: no request went out (the journal is written before the wire), and this
    // run holds the original input that such a run asks to be sent again from (docs/behaviour.md#once).
    const fresh = familyLockName(runId);
    leases.push(await own(fresh, runId, { what: `run ${runId}`, wait: true }, ctx));
    return { runId, lock: fresh, once, afresh: earlier.header.run_id };
  }
  checkResumable(earlier, earlier.header.run_id, false, undefined, undefined, voucherFor(earlier.path, ctx, settingsFlags(ctx.argv ?? [])));
  const family = familyOf(earlier, ctx.env);
  const left = remainingOf(family, options.includeInDoubt === true);
  await proveKey(once.key, found.path, earlier.header, family[0]!.path, left.clientIds, clientIds);
  if (!left.any) {
    // Done: 0 when every recipient has it; otherwise the verdict of what the whole family delivered, the state
    // `runs show` gives it (docs/behaviour.md#once) — not the exit of whichever run ended last (a resume that
    // delivered all it sent said 0 beside recipients its parent left in doubt), nor of the run found.
    const last = [...family].reverse().find((member) => member.end !== undefined) ?? earlier;
    const exitCode = left.inDoubt === 0 && left.rejected === 0 ? ExitCode.ok : familyExitCode(family);
    return { runId, lock, once, skipped: { kind: 'skipped', exitCode, skipped: { run: last, family: familyOutcome(family), key: once.key, left } } };
  }
  // The journal's own message: the fingerprint says it is the same, and it is what the earlier run sent.
  const resume = {
    parent: earlier.header.run_id,
    path: earlier.path,
    state: earlier.state,
    clientIds: left.clientIds,
    body: earlier.header.message as PushMessage,
    inDoubt: options.includeInDoubt ? 0 : left.inDoubt,
    left: left.clientIds ? counted(left.clientIds.length, 'recipient') : (left.audience ?? 'its audience'),
    family: family.map((member) => member.header.run_id),
    ...(earlier.header.variants ? { variants: earlier.header.variants } : {}),
    ...(left.variantOf ? { variantOf: left.variantOf } : {}),
    ...(left.audiences ? { audiences: left.audiences } : {}),
  };
  return { runId, lock, once, resume };
}

/**
 * The next step when the key stands for another message or audience. A run of the key that left recipients
 * (killed, say, before an audience file grew) is finished by its resend, with its own message and recipients:
 * a new key would send its whole audience again, those who have it included (docs/behaviour.md#once).
 */
function otherUseHint(found: { path: string; header: HeaderRecord }, env: Ctx['env'], voucher: Voucher): string {
  const other = 'use a new key for a new announcement, or send the same message file, variables and recipients as that run';
  let left: boolean;
  try {
    const run = readRunLeft(found.path, locksDir(env));
    left = !(run.incomplete && !sentAny(run)) && remainingOf(familyOf(run, env), false).any;
  } catch {
    // A family still being sent, or a journal that cannot be read: nothing to finish from here.
    return other;
  }
  if (!left) return other;
  const targets = typeof found.header.targets === 'string';
  // A journal from elsewhere is data: its host and files are repeated only as this command names them itself.
  const flags = voucher(targets ? familyFlags(found.header.argv) : settingsFlags(found.header.argv));
  const command = resendRun(targets ? found.header.targets! : found.header.run_id, undefined, flags.flags)(false);
  return `that run is unfinished: \`${command}\` sends what it left, with its own message and recipients (a new key would send its whole audience again); send to recipients it did not have apart`;
}

/**
 * Refuses a key whose journals do not prove what they say (docs/behaviour.md#trust): the fingerprint made again
 * from their records is not the one the header claims, or what is left to send holds someone this command
 * does not name. An edited journal could otherwise have a re-run send its message, or skip its recipients.
 */
async function proveKey(key: string, path: string, found: HeaderRecord, rootPath: string, toSend: string[] | undefined, audience: ClientIdSource | undefined): Promise<void> {
  const { keyProofProblem, outsideAudience } = await import('../../journal/key-proof.js');
  const stranger = toSend ? outsideAudience(toSend, audience) : [];
  const problem = keyProofProblem(found, rootPath) ?? (stranger.length > 0 ? `its runs list recipients this command does not name (${stranger.map((id) => JSON.stringify(id)).join(', ')})` : undefined);
  if (problem === undefined) return;
  throw usageError(
    `--once ${escapeControl(key)}: ${path} holds this key, but ${escapeControl(problem)}; nothing was sent`,
    'restore the journal as pushctl wrote it, or move it out of the journal directory if it is no run of yours (then this key sends afresh)',
  );
}

/** A command that takes send's options (checked by its schema) and prints send's outcome: send, and dry-run. */
export const sendShaped = (run: (options: SendOptions, ctx: CommandCtx) => Promise<SendOutcome>) => runnable(sendOptionsSchema, run, printSend);

export const command = sendShaped(send);
