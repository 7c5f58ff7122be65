// The targets of a run of several as a resend reads them (docs/behaviour.md#targets): the options it refuses,
// what each target left, where each goes (its own profile and secret), and what a target with nothing left
// or after its resend comes to.
import { extendCtx, type Ctx } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import type { Lease } from '../../journal/ownership.js';
import { messageIds } from '../../journal/run-state.js';
import type { TargetResult } from '../../output/targets.js';
import type { TargetPreview, TargetsPreview } from '../../output/resend.js';
import { readRunLeft, type RunView } from '../../journal/read-run.js';
import { familyExitCode } from './key-outcome.js';
import type { SettingsOptions } from '../../settings/load-settings.js';
import type { DeliveryOptions } from './delivery-options.js';
import { locksDir } from './own-run.js';
import type { RunConfig } from './run-config.js';
import { resendSettings } from './resend-destination.js';
import { checkResumable, familyOf, remainingOf, replacedBy, type Remaining } from './resume.js';
import { profileSecretEnv, targetEnv } from './target-list.js';
import type { Target } from './target-setup.js';
import { targetError } from './target-error.js';
import { settingsFlags } from './resend-command.js';
import { voucherFor } from './vouched-flags.js';

export interface TargetsResendOptions extends SettingsOptions, DeliveryOptions {
  dryRun?: boolean;
  argv: readonly string[];
}

/** One target of the family: its newest word on what is left, and (when something is) where it goes. */
export interface Member {
  run: RunView;
  profile: string;
  left: Remaining;
  /** The exit status of what the target's whole run family delivered: a target with nothing left ends with it. */
  verdict: number;
  /** The run id this resend of the target takes, and the lease on the target's family of runs. */
  runId?: string;
  lease?: Lease;
  /** Every lease on that family: the lease above, and one beside the target's journal in another runs directory. */
  leases?: Lease[];
  target?: Target;
  /** deliver closes the client it was given; one never handed over is closed at the end. */
  delivering?: boolean;
}

/** Flags that would choose one destination or one secret for every target. */
export function checkFamilyOptions(options: TargetsResendOptions, env: Record<string, string | undefined>): void {
  const flag = options.appId !== undefined ? '--app-id' : options.baseUrl !== undefined ? '--base-url' : options.region !== undefined ? '--region' : options.profile !== undefined ? '--profile' : options.appSecretFile !== undefined ? '--app-secret-file' : options.appSecretStdin ? '--app-secret-stdin' : undefined;
  if (flag !== undefined) throw usageError(`${flag} applies to one target; this run has several, each with its profile in its journal`, 'drop the flag: each target is resent where it went, with its own profile\'s settings');
  if (env.PUSHCTL_APP_SECRET !== undefined && env.PUSHCTL_APP_SECRET !== '') throw usageError('PUSHCTL_APP_SECRET is one secret for several targets: it would go to every target\'s destination', 'unset it: each profile\'s secret comes from the config file or PUSHCTL_APP_SECRET_<PROFILE>');
  if (options.report !== undefined) throw usageError('--report writes one run\'s report; this run has several targets', 'drop --report; pushctl runs show <target run> --report <path> writes one target\'s');
}

export function readMember(path: string, family: string, owned: { runId: string; lease: Lease; leases: Lease[] } | undefined, options: TargetsResendOptions, ctx: Ctx): Member {
  const run = readRunLeft(path, locksDir(ctx.env));
  checkResumable(run, family, false, undefined, replacedBy(run, ctx.env), voucherFor(path, ctx, settingsFlags(options.argv)));
  const runs = familyOf(run, ctx.env);
  const left = remainingOf(runs, options.includeInDoubt === true);
  const verdict = left.inDoubt === 0 && left.rejected === 0 ? ExitCode.ok : familyExitCode(runs);
  return { run, profile: run.header.profile ?? run.header.run_id, left, verdict, ...(owned ?? {}) };
}

/** `--dry-run`, or nothing left: what each target would send, and where (output/resend.ts prints it). */
export async function preview(members: readonly Member[], options: TargetsResendOptions, ctx: Ctx, config: RunConfig): Promise<TargetsPreview> {
  const previews: TargetPreview[] = [];
  for (const member of members) {
    const loaded = member.left.any ? await settingsOf(member, options, ctx, config) : undefined;
    const destination = loaded ? { baseUrl: loaded.settings.baseUrl, source: loaded.sources.baseUrl ?? 'default region' } : undefined;
    previews.push({ profile: member.profile, header: member.run.header, left: member.left, ...(destination ? { destination } : {}) });
  }
  return { kind: 'targets-preview', exitCode: ExitCode.ok, dryRun: options.dryRun === true, previews };
}

/** A target's settings as a resend's (resend-destination.ts), read with its own profile and secret; an error names the profile. */
export async function settingsOf(member: Member, options: TargetsResendOptions, ctx: Ctx, config: RunConfig) {
  return resendSettings({ ...options, profile: member.profile }, member.run.header, extendCtx(ctx, { env: targetEnv(ctx.env, member.profile) }), config).catch((error: unknown) => {
    throw named(member.profile, error);
  });
}

export const named = (profile: string, error: unknown) =>
  error instanceof CliError ? targetError(profile, error, error.hint ?? `set its secret with ${profileSecretEnv(profile)}`) : error;

/** What a target left after this resend: its own counts, and what it left in doubt before unless included now. */
export function leftAfter(result: TargetResult, member: Member, includeInDoubt: boolean): { notSent: number; inDoubt: number; audience?: string } {
  const audience = result.audience ? { audience: result.audience } : {};
  if (result.state === 'skipped') return { notSent: 0, inDoubt: member.left.inDoubt, ...audience };
  const counts = result.audience ? result.summary.batches : result.summary.recipients;
  return { notSent: counts.not_sent, inDoubt: counts.in_doubt + (includeInDoubt ? 0 : member.left.inDoubt), ...audience };
}

/** A target with nothing left to send: its run as it stands, and what that came to. */
export function nothingLeft(m: Member): TargetResult {
  const { header } = m.run;
  return {
    profile: m.profile,
    appId: header.app_id,
    baseUrl: header.base_url ?? `https://${header.host}`,
    runId: header.run_id,
    journalPath: m.run.path,
    state: 'skipped',
    exitCode: m.verdict,
    summary: m.run.summary,
    messageIds: messageIds(m.run.results),
    ...(m.left.audience ? { audience: m.left.audience } : {}),
  };
}
