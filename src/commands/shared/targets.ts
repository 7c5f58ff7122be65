// A run of several targets (docs/behaviour.md#targets): the same message to each profile's app and
// destination. Every target's settings are checked first (target-setup.ts); then, with the journal, each
// target's `--once` key and run are owned (in one order, so two such runs never wait on each other), and only
// then do the targets send, side by side, each through the single-target delivery (deliver.ts).
import type { Ctx } from '../../context.js';
import { CliError } from '../../errors.js';
import { summarizeBatches } from '../../client/report.js';
import type { RateLimiter } from '../../client/rate-limiter.js';
import type { Lease } from '../../journal/ownership.js';
import { audienceWords } from '../../message/audience.js';
import { formatIssueList } from '../../output/issues.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { Style } from '../../output/style.js';
import { sumSummaries } from '../../client/report.js';
import { deliveredRow, targetsExitCode, type TargetResult, type TargetsOutcome } from '../../output/targets.js';
import { targetsAsKey } from './targets-key.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import type { SettingsOptions } from '../../settings/load-settings.js';
import { claimRun, type RunClaim } from './claim.js';
import type { DeliveryOptions } from './delivery-options.js';
import type { PreparedMessage } from './prepare-message.js';
import { deliveryTuning } from './delivery-options.js';
import { arrangeVariants, type ArrangedDelivery } from './variant-delivery.js';
import { resendVariants } from './resend-variants.js';
import { onceLockName } from './own-run.js';
import { onceClaimLine } from './once-words.js';
import { escapeControl } from '../../output/escape-control.js';
import { announcement, checkTargetOptions, limitersFor, resolveTargets, type Target } from './target-setup.js';
import { familyAdvice, leftOf } from './target-advice.js';
import { answerForKey } from './key-outcome.js';
import { targetError } from './target-error.js';
import type { RunConfig } from './run-config.js';

type Prepared = Extract<PreparedMessage, { ok: true }>;
type Deliver = typeof import('./deliver.js').deliver;
/** What send takes that a run of several targets reads. */
export type TargetSendOptions = SettingsOptions & DeliveryOptions & { dryRun: boolean; argv: readonly string[]; once?: string; batchSize?: number };

/** A target with what this process owns of it: its claim (absent with --no-journal) and leases. */
interface Owned {
  target: Target;
  claim?: RunClaim;
  leases: Lease[];
}

/** Sends one prepared message to every profile's target; the send command prints what it returns. */
export async function sendTargets<O extends TargetSendOptions>(prepared: Prepared, profiles: readonly string[], options: O, ctx: Ctx, scrubber: SecretScrubber, style: Style, config: RunConfig): Promise<TargetsOutcome> {
  checkTargetOptions(options, profiles, ctx.env);
  const { human } = deliveryTuning(options);
  // Variants become lanes of client IDs or one request per language, the same for every target.
  const arranged = arrangeVariants(prepared, options.batchSize ?? MAX_BATCH_SIZE);
  const warnings = [...prepared.warnings, ...arranged.warnings];
  if (human) ctx.stderr.write(formatIssueList('warnings:', warnings, style, style.warn));
  const [{ connect }, { deliver }] = await Promise.all([import('./connect.js'), import('./deliver.js')]);
  const targets = await resolveTargets(profiles, options, ctx, scrubber, { dryRun: options.dryRun, human, announce: options.once === undefined }, (...target) => connect(...target, config));
  const owned: Owned[] = targets.map((target) => ({ target, leases: [] }));
  const sending = new Set<Target>();
  try {
    if (options.journal !== false) await claimAll(owned, options, arranged, ctx);
    // With --once, only the targets that send now are said to be sent to (docs/behaviour.md#once).
    if (human && options.once !== undefined) for (const o of owned) if (!o.claim?.skipped) ctx.stderr.write(announcement(o.target));
    // What each target does with the key's earlier run, in a single target's words, named by its profile.
    if (human && options.once !== undefined) {
      for (const o of owned) {
        const line = o.claim && onceClaimLine(options.once, o.claim);
        if (line) ctx.stderr.write(`profile ${escapeControl(o.target.profile)}: ${line}`);
      }
    }
    // The family is named by its first target that sends now; a target --once found done keeps its run.
    const family = owned.find((o) => o.claim && !o.claim.skipped)?.claim?.runId;
    const limiters = limitersFor(targets, options.rate ?? 50);
    // Every target is awaited before anything is let go: a lease released early would let another process in.
    const settled = await Promise.allSettled(
      owned.map(async (o) => {
        if (o.claim?.skipped) return skippedTarget(o);
        sending.add(o.target);
        return deliverTarget(o, { options, arranged, family, limiter: limiters.get(o.target.baseUrl)!, ctx, scrubber, style, deliver });
      }),
    );
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const results = settled.map((s) => (s as PromiseFulfilledResult<TargetResult>).value);
    const exitCode = targetsExitCode(results.map((r) => r.exitCode));
    // Every target found done: the run found for the first names the key's runs, as a single target's skip does.
    const named = family ?? (results.every((r) => r.state === 'skipped') ? results[0]?.runId : undefined);
    const advice = family !== undefined || results.some((r) => r.state === 'skipped') ? familyAdvice(family ?? results[0]!.runId!, owned.map((o, i) => leftOf(results[i]!, o.claim)), options.argv, options.dryRun) : undefined;
    const outcome: TargetsOutcome = { exitCode, dryRun: options.dryRun, ...(named !== undefined ? { family: named } : {}), targets: results, warnings, notes: prepared.notes, ...(advice ? { advice } : {}) };
    return options.once !== undefined ? withKey(outcome, ctx) : outcome;
  } finally {
    // deliver closes its client itself; a target that never got there is closed here.
    for (const target of targets) if (!sending.has(target)) target.connection.client.close();
    for (const o of [...owned].reverse()) for (const lease of o.leases.reverse()) lease.release();
  }
}

/**
 * Owns every target's `--once` key (or new run) before reading what earlier runs did. With --once the keys
 * are taken in the order of their lock names, the same in every process, so two runs of overlapping targets
 * wait for each other rather than each holding half.
 */
async function claimAll(owned: Owned[], options: TargetSendOptions, arranged: ArrangedDelivery, ctx: Ctx): Promise<void> {
  // The key's fingerprint covers every variant, as a single target's does.
  const { body, clientIds, variants } = arranged;
  const claimed = variants ? { ...body, variants: Object.fromEntries(variants.messages) } : body;
  const order = [...owned];
  if (options.once !== undefined) {
    const lockOf = (o: Owned) => onceLockName(options.once!, o.target.connection.appId, o.target.baseUrl, options.dryRun);
    order.sort((a, b) => (lockOf(a) < lockOf(b) ? -1 : lockOf(a) > lockOf(b) ? 1 : 0));
  }
  for (const o of order) {
    o.claim = await claimRun(options, claimed, clientIds, o.target.connection, o.leases, ctx).catch((error: unknown) => {
      throw error instanceof CliError ? targetError(o.target.profile, error) : error;
    });
  }
}

/** A --once re-run that resumed some target: the key's counts over all targets, for the top level (targets-key.ts). */
function withKey(outcome: TargetsOutcome, ctx: Ctx): TargetsOutcome {
  const key = targetsAsKey(outcome, ctx.env);
  if (key.resumed.length === 0) return outcome;
  const rows = key.outcome.targets;
  return { ...outcome, key: { summary: sumSummaries(rows.map((t) => t.summary)), messageIds: rows.flatMap((t) => t.messageIds), state: key.state!, ...(key.attempt ? { attempt: key.attempt } : {}) } };
}

/** A target whose --once run was done already: that run, and nothing sent now. */
function skippedTarget(o: Owned): TargetResult {
  // What the target's whole run family delivered, as a single target's skip says (docs/behaviour.md#once).
  const { run, family, left } = o.claim!.skipped!.skipped!;
  return {
    ...where(o.target),
    runId: run.header.run_id,
    journalPath: run.path,
    state: 'skipped',
    exitCode: o.claim!.skipped!.exitCode,
    summary: family.summary,
    messageIds: family.message_ids,
    ...(left.audience ? { audience: left.audience } : {}),
    ...(family.variants ? { variants: family.variants } : {}),
  };
}

const where = (target: Target) => ({ profile: target.profile, appId: target.connection.appId, baseUrl: target.baseUrl });

interface DeliverTargetContext {
  options: TargetSendOptions;
  arranged: ArrangedDelivery;
  family: string | undefined;
  limiter: RateLimiter;
  ctx: Ctx;
  scrubber: SecretScrubber;
  style: Style;
  deliver: Deliver;
}

/** One target's delivery, as a single-target send does it; what stops it is its row's error, not the others'. */
async function deliverTarget(o: Owned, c: DeliverTargetContext): Promise<TargetResult> {
  const { options, arranged, ctx } = c;
  const { claim, target } = o;
  const resume = claim?.resume;
  // A resumed target sends each remaining ID its own variant again, as its journal says.
  const resent = resume ? resendVariants(resume, resume) : undefined;
  const recipients = resent ? resent.clientIds : arranged.clientIds;
  const variants = resent ? resent.variants : arranged.variants;
  try {
    const delivery = await c.deliver(
      {
        ...target.connection,
        body: resume?.body ?? arranged.body,
        ...(recipients ? { clientIds: recipients } : {}),
        ...(variants ? { variants } : {}),
        dryRun: options.dryRun,
        argv: options.argv,
        batchSize: options.batchSize ?? MAX_BATCH_SIZE,
        ...deliveryTuning(options),
        // One progress line per target would fight over the terminal: the table at the end says it all.
        human: false,
        limiter: c.limiter,
        ...(claim?.once ? { once: claim.once } : {}),
        ...(claim ? { runId: claim.runId, lock: claim.lock } : {}),
        ...(resume ? { parent: resume.parent, inheritedInDoubt: resume.inDoubt } : {}),
        ...(claim?.afresh !== undefined ? { replaces: claim.afresh } : {}),
        ...(c.family !== undefined ? { targets: { family: c.family, profile: target.profile } } : {}),
        leases: o.leases,
      },
      ctx,
      c.scrubber,
      c.style,
    );
    return deliveredRow(where(target), resume ? answerForKey(delivery, ctx.env) : delivery);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    // A target stopped before its first request (its journal could not be started): nothing of it was sent.
    const audience = audienceWords(arranged.body);
    return { ...where(target), state: 'not_sent', exitCode: error.exitCode, summary: summarizeBatches([]), messageIds: [], ...(audience ? { audience } : {}), error: { message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
  }
}
