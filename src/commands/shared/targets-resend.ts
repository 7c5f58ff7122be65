// `pushctl resend <run>` of a run of several targets (docs/behaviour.md#targets): every target's remainder,
// each to its own destination as resend-destination.ts rules it. As for a send, every target is owned, read
// and checked (its settings, its secret) before anything is sent to any; then they send side by side.
import type { Ctx } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import type { Lease } from '../../journal/ownership.js';
import { closedState, familyRoot, readRun, readRunLeft } from '../../journal/read-run.js';
import { runsDir } from '../../journal/runs-dir.js';
import { familyMembers } from '../../journal/target-family.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import { messageIds } from '../../journal/run-state.js';
import type { PushMessage } from '../../message/types.js';
import { escapeControl } from '../../output/escape-control.js';
import type { SecretScrubber } from '../../output/redact.js';
import { formatResendPreview } from '../../output/resend-preview.js';
import type { Style } from '../../output/style.js';
import { printTargets, targetsExitCode, type TargetResult } from '../../output/targets.js';
import type { SettingsOptions } from '../../settings/load-settings.js';
import type { DeliveryOptions } from './delivery-options.js';
import { deliveryTuning } from './delivery-options.js';
import { familyLockName, freshRunId, locksDir, own } from './own-run.js';
import { resendSettings } from './resend-destination.js';
import { checkResumable, familyOf, remainingOf, type ReadRun, type Remaining } from './resume.js';
import { familyAdvice } from './target-advice.js';
import { profileSecretEnv, targetEnv } from './target-list.js';
import { limitersFor, type Target } from './target-setup.js';

export interface TargetsResendOptions extends SettingsOptions, DeliveryOptions {
  dryRun?: boolean;
  argv: readonly string[];
}

/** One target of the family: its newest word on what is left, and (when something is) where it goes. */
interface Member {
  run: ReadRun;
  profile: string;
  left: Remaining;
  /** The run id this resend of the target takes, and the lease on the target's family of runs. */
  runId?: string;
  lease?: Lease;
  target?: Target;
  /** deliver closes the client it was given; one never handed over is closed at the end. */
  delivering?: boolean;
}

/** Flags that would choose one destination or one secret for every target. */
function checkFamilyOptions(options: TargetsResendOptions, env: Record<string, string | undefined>): void {
  const flag = options.appId !== undefined ? '--app-id' : options.baseUrl !== undefined ? '--base-url' : options.region !== undefined ? '--region' : options.profile !== undefined ? '--profile' : options.appSecretFile !== undefined ? '--app-secret-file' : options.appSecretStdin ? '--app-secret-stdin' : undefined;
  if (flag !== undefined) throw usageError(`${flag} applies to one target; this run has several, each with its profile in its journal`, 'drop the flag: each target is resent where it went, with its own profile\'s settings');
  if (env.PUSHCTL_APP_SECRET !== undefined && env.PUSHCTL_APP_SECRET !== '') throw usageError('PUSHCTL_APP_SECRET is one secret for several targets: it would go to every target\'s destination', 'unset it: each profile\'s secret comes from the config file or PUSHCTL_APP_SECRET_<PROFILE>');
  if (options.report !== undefined) throw usageError('--report writes one run\'s report; this run has several targets', 'drop --report; pushctl runs show <target run> --report <path> writes one target\'s');
}

/** Resends every target of family `family`; returns the exit status. */
export async function resendTargets(options: TargetsResendOptions, family: string, dir: string, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<number> {
  checkFamilyOptions(options, ctx.env);
  const dirs = [dir, runsDir(ctx.env)];
  const paths = familyMembers(dirs, family);
  const members: Member[] = [];
  const held: Lease[] = [];
  try {
    // Own every target's own family of resends (in lock-name order, the same in every process), then read.
    const locks = paths.map(({ path }) => ({ path, lock: familyLockName(familyRoot(dirs, readRun(path, locksDir(ctx.env), false))) })).sort((a, b) => (a.lock < b.lock ? -1 : 1));
    const leases = new Map<string, { runId: string; lease: Lease }>();
    for (const { path, lock } of locks) {
      if (options.dryRun) continue;
      const runId = freshRunId(ctx.env);
      const lease = await own(lock, runId, { what: `run ${escapeControl(family)}`, wait: options.wait !== false }, ctx);
      held.push(lease);
      leases.set(path, { runId, lease });
    }
    for (const { path } of paths) members.push(readMember(path, family, leases.get(path), options, ctx));
    if (options.dryRun || !members.some((m) => m.left.any)) return await preview(members, options, ctx);
    await connectAll(members, options, ctx, scrubber);
    return await sendAll(members, family, options, ctx, scrubber, style);
  } finally {
    for (const member of members) if (member.target && !member.delivering) member.target.connection.client.close();
    for (const lease of held.reverse()) lease.release();
  }
}

function readMember(path: string, family: string, owned: { runId: string; lease: Lease } | undefined, options: TargetsResendOptions, ctx: Ctx): Member {
  const run = readRunLeft(path, locksDir(ctx.env));
  checkResumable(run, family);
  const left = remainingOf(familyOf(run, ctx.env), options.includeUnknown === true);
  return { run, profile: run.header.profile ?? run.header.run_id, left, ...(owned ?? {}) };
}

/** `--dry-run`, or nothing left: what each target would send, and where. */
async function preview(members: readonly Member[], options: TargetsResendOptions, ctx: Ctx): Promise<number> {
  for (const member of members) {
    const loaded = member.left.any ? await settingsOf(member, options, ctx) : undefined;
    const destination = loaded ? { baseUrl: loaded.settings.baseUrl, source: loaded.sources.baseUrl ?? 'default region' } : undefined;
    if (!options.quiet && !options.json) ctx.stderr.write(`target ${escapeControl(member.profile)}: ${formatResendPreview(member.run.header, member.left, options.dryRun === true, destination)}`);
  }
  if (options.json) {
    const targets = members.map((m) => ({ profile: m.profile, run_id: m.run.header.run_id, not_sent: m.left.notSent, in_doubt: m.left.inDoubt, rejected: m.left.rejected, would_send: m.left.clientIds?.length ?? (m.left.sendAudience ? m.left.audience : 0) }));
    ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: ExitCode.ok, dry_run: options.dryRun === true, targets }, null, 2)}\n`);
  }
  return ExitCode.ok;
}

/** A target's settings as a resend's (resend-destination.ts), read with its own profile and secret; an error names the profile. */
async function settingsOf(member: Member, options: TargetsResendOptions, ctx: Ctx) {
  return resendSettings({ ...options, profile: member.profile }, member.run.header, { ...ctx, env: targetEnv(ctx.env, member.profile) }).catch((error: unknown) => {
    throw named(member.profile, error);
  });
}

const named = (profile: string, error: unknown) =>
  error instanceof CliError ? new CliError(`profile ${escapeControl(profile)}: ${error.message}; nothing was sent to any target`, error.exitCode, error.hint ?? `set its secret with ${profileSecretEnv(profile)}`) : error;

/** Every target with something left is checked and connected before any sends. */
async function connectAll(members: Member[], options: TargetsResendOptions, ctx: Ctx, scrubber: SecretScrubber): Promise<void> {
  const { connect } = await import('./connect.js');
  const { human } = deliveryTuning(options);
  for (const member of members) {
    if (!member.left.any) continue;
    const loaded = await settingsOf(member, options, ctx);
    const connection = await connect({ ...options, profile: member.profile }, ctx, scrubber, { dryRun: member.run.header.dry_run, human }, loaded).catch((error: unknown) => {
      throw named(member.profile, error);
    });
    member.target = { profile: member.profile, connection, baseUrl: journalBaseUrl(connection.baseUrl) };
  }
}

async function sendAll(members: Member[], family: string, options: TargetsResendOptions, ctx: Ctx, scrubber: SecretScrubber, style: Style): Promise<number> {
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
          ...(m.left.clientIds ? { clientIds: m.left.clientIds } : {}),
          dryRun: m.run.header.dry_run,
          argv: options.argv,
          batchSize: options.batchSize ?? MAX_BATCH_SIZE,
          ...deliveryTuning(options),
          human: false,
          limiter: limiters.get(m.target.baseUrl)!,
          ...(m.run.header.once !== undefined && m.run.header.fingerprint !== undefined ? { once: { key: m.run.header.once, fingerprint: m.run.header.fingerprint } } : {}),
          parent: m.run.header.run_id,
          ...(m.lease && m.runId !== undefined ? { runId: m.runId, lock: m.lease.name } : {}),
          ...(options.includeUnknown ? {} : { inheritedInDoubt: m.left.inDoubt }),
          ...(newFamily !== undefined ? { targets: { family: newFamily, profile: m.profile } } : {}),
        },
        m.lease ? { ...ctx, interrupt: AbortSignal.any([ctx.interrupt, m.lease.lost]) } : ctx,
        scrubber,
        style,
      );
      return {
        profile: m.profile,
        appId: m.target.connection.appId,
        baseUrl: m.target.baseUrl,
        ...(delivery.runId !== undefined ? { runId: delivery.runId } : {}),
        ...(delivery.journalPath !== undefined ? { journalPath: delivery.journalPath } : {}),
        state: closedState(delivery.summary, delivery.interrupted),
        exitCode: m.lease?.lost.aborted ? ExitCode.usage : delivery.exitCode,
        summary: delivery.summary,
        messageIds: delivery.results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : [])),
        resumedFrom: m.run.header.run_id,
        ...(delivery.audience ? { audience: delivery.audience } : {}),
      };
    }),
  );
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const results = settled.map((s) => (s as PromiseFulfilledResult<TargetResult>).value);
  const lefts = results.map((r, i) => leftAfter(r, members[i]!, options.includeUnknown === true));
  const advice = familyAdvice(newFamily ?? family, lefts, options.argv);
  const exitCode = targetsExitCode(results.map((r) => r.exitCode));
  printTargets({ exitCode, dryRun: members[0]!.run.header.dry_run, ...(newFamily !== undefined ? { family: newFamily } : {}), targets: results, warnings: [], notes: [], ...(advice ? { advice } : {}) }, options, ctx, style);
  return exitCode;
}

/** What a target left after this resend: its own counts, and what it left in doubt before unless included now. */
function leftAfter(result: TargetResult, member: Member, includeUnknown: boolean): { notSent: number; inDoubt: number; audience?: string } {
  const audience = result.audience ? { audience: result.audience } : {};
  if (result.state === 'skipped') return { notSent: 0, inDoubt: member.left.inDoubt, ...audience };
  const counts = result.audience ? result.summary.batches : result.summary.recipients;
  return { notSent: counts.not_sent, inDoubt: counts.unknown + (includeUnknown ? 0 : member.left.inDoubt), ...audience };
}

/** A target with nothing left to send: its run as it stands, and what that came to. */
function nothingLeft(m: Member): TargetResult {
  const { header } = m.run;
  return {
    profile: m.profile,
    appId: header.app_id,
    baseUrl: header.base_url ?? `https://${header.host}`,
    runId: header.run_id,
    journalPath: m.run.path,
    state: 'skipped',
    exitCode: m.left.inDoubt === 0 && m.left.rejected === 0 ? ExitCode.ok : (m.run.end?.exit_code ?? ExitCode.partial),
    summary: m.run.summary,
    messageIds: messageIds(m.run.results),
    ...(m.left.audience ? { audience: m.left.audience } : {}),
  };
}
