// `pushctl resend <run>` of a run of several targets (docs/behaviour.md#targets): every target's remainder,
// each to its own destination as resend-destination.ts rules it. As for a send, every target is owned, read
// and checked (its settings, its secret) before anything is sent to any; then they send side by side.
import { resendVariants } from './resend-variants.js';
import type { Ctx } from '../../context.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import type { Lease } from '../../journal/ownership.js';
import { familyRoot, readRun } from '../../journal/read-run.js';
import { runsDir } from '../../journal/runs-dir.js';
import { familyMembers } from '../../journal/target-family.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import type { PushMessage } from '../../message/types.js';
import { escapeControl } from '../../output/escape-control.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { Style } from '../../output/style.js';
import { deliveredRow, targetsExitCode, type TargetResult, type TargetsOutcome } from '../../output/targets.js';
import type { TargetsPreview } from '../../output/resend.js';
import { deliveryTuning } from './delivery-options.js';
import { familyLockName, freshRunId, journalBeside, locksDir, ownFamily } from './own-run.js';
import { familyAdvice } from './target-advice.js';
import { checkFamilyOptions, leftAfter, named, nothingLeft, preview, readMember, settingsOf, type Member, type TargetsResendOptions } from './target-members.js';
import { announcement, limitersFor } from './target-setup.js';
import { RunConfig } from './run-config.js';

export type { TargetsResendOptions };

/** Resends every target of family `family`; returns the exit status. */
export async function resendTargets(options: TargetsResendOptions, family: string, dir: string, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<TargetsPreview | { kind: 'targets'; exitCode: number; targets: TargetsOutcome }> {
  checkFamilyOptions(options, ctx.env);
  const dirs = [dir, runsDir(ctx.env)];
  const paths = familyMembers(dirs, family);
  const members: Member[] = [];
  const held: Lease[] = [];
  try {
    // Own every target's own family of resends (in lock-name order, the same in every process), then read.
    const locks = paths.map(({ path }) => ({ path, lock: familyLockName(familyRoot(dirs, readRun(path, locksDir(ctx.env), false))) })).sort((a, b) => (a.lock < b.lock ? -1 : 1));
    const leases = new Map<string, { runId: string; lease: Lease; leases: Lease[] }>();
    for (const { path, lock } of locks) {
      if (options.dryRun) continue;
      const runId = freshRunId(ctx.env);
      const owned = await ownFamily(lock, runId, { what: `run ${escapeControl(family)}`, wait: options.wait !== false }, path, ctx);
      held.push(...owned);
      leases.set(path, { runId, lease: owned[0]!, leases: owned });
    }
    for (const { path } of paths) members.push(readMember(path, family, leases.get(path), options, ctx));
    // One config file for every target, read once (run-config.ts).
    const config = new RunConfig(options, ctx);
    if (options.dryRun || !members.some((m) => m.left.any)) return await preview(members, options, ctx, config);
    await connectAll(members, options, ctx, scrubber, config);
    return await sendAll(members, family, options, ctx, scrubber, style);
  } finally {
    for (const member of members) if (member.target && !member.delivering) member.target.connection.client.close();
    for (const lease of held.reverse()) lease.release();
  }
}

/** Every target with something left is checked and connected before any sends, and announced once all are. */
async function connectAll(members: Member[], options: TargetsResendOptions, ctx: Ctx, scrubber: SecretScrubber, config: RunConfig): Promise<void> {
  const { connect } = await import('./connect.js');
  const { human } = deliveryTuning(options);
  for (const member of members) {
    if (!member.left.any) continue;
    const loaded = await settingsOf(member, options, ctx, config);
    const connection = await connect({ ...options, profile: member.profile }, ctx, scrubber, { dryRun: member.run.header.dry_run, human, announce: false }, loaded).catch((error: unknown) => {
      throw named(member.profile, error);
    });
    member.target = { profile: member.profile, connection, baseUrl: journalBaseUrl(connection.baseUrl) };
  }
  if (human) for (const member of members) if (member.target) ctx.stderr.write(announcement(member.target));
}

async function sendAll(members: Member[], family: string, options: TargetsResendOptions, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<{ kind: 'targets'; exitCode: number; targets: TargetsOutcome }> {
  const { deliver } = await import('./deliver.js');
  const sending = members.filter((m) => m.target);
  const limiters = limitersFor(sending.map((m) => m.target!), options.rate ?? 50);
  // The resend's own family is named by its first target's new run.
  const newFamily = sending.find((m) => m.runId !== undefined)?.runId;
  const settled = await Promise.allSettled(
    members.map(async (m): Promise<TargetResult> => {
      if (!m.target) return nothingLeft(m);
      m.delivering = true;
      const delivery = await deliver(
        {
          ...m.target.connection,
          body: m.run.header.message as PushMessage,
          // Each remaining ID its own variant again, as the target's journal says (docs/behaviour.md#variants).
          ...resendVariants(m.run.header, m.left),
          dryRun: m.run.header.dry_run,
          argv: options.argv,
          batchSize: options.batchSize ?? MAX_BATCH_SIZE,
          ...deliveryTuning(options),
          human: false,
          limiter: limiters.get(m.target.baseUrl)!,
          ...(m.run.header.once !== undefined && m.run.header.fingerprint !== undefined ? { once: { key: m.run.header.once, fingerprint: m.run.header.fingerprint } } : {}),
          parent: m.run.header.run_id,
          ...(m.lease && m.runId !== undefined ? { runId: m.runId, lock: m.lease.name } : {}),
          ...(options.includeInDoubt ? {} : { inheritedInDoubt: m.left.inDoubt }),
          ...(newFamily !== undefined ? { targets: { family: newFamily, profile: m.profile } } : {}),
          ...(m.leases ? { leases: m.leases } : {}),
          ...journalBeside(m.run.path, m.runId, options.journal, ctx.env),
        },
        ctx,
        scrubber,
        style,
      );
      return deliveredRow({ profile: m.profile, appId: m.target.connection.appId, baseUrl: m.target.baseUrl }, delivery);
    }),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const results = settled.map((s) => (s as PromiseFulfilledResult<TargetResult>).value);
  const lefts = results.map((r, i) => leftAfter(r, members[i]!, options.includeInDoubt === true));
  const advice = familyAdvice(newFamily ?? family, lefts, options.argv, members[0]!.run.header.dry_run);
  const exitCode = targetsExitCode(results.map((r) => r.exitCode));
  const targets = { exitCode, dryRun: members[0]!.run.header.dry_run, ...(newFamily !== undefined ? { family: newFamily } : {}), targets: results, warnings: [], notes: [], ...(advice ? { advice } : {}) };
  return { kind: 'targets', exitCode, targets };
}

