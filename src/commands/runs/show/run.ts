// `pushctl runs show <run>`: one run's outcome, message_ids and resend command (docs/behaviour.md#runs).
import { dirname } from 'node:path';
import type { Ctx } from '../../../context.js';
import { ExitCode } from '../../../errors.js';
import { readRun, readRunLeft, replacementOf, resendsOf } from '../../../journal/read-run.js';
import { resentBy } from '../../../journal/resent-by.js';
import { runsDir } from '../../../journal/runs-dir.js';
import { familyOutcome } from '../../../journal/family-outcome.js';
import { messageIds, overview } from '../../../journal/run-state.js';
import type { SecretScrubber } from '../../../output/redact.js';
import { printRunDetail, type RunDetail, type RunShowOutcome } from '../../../output/runs.js';
import type { ResendAdvice } from '../../../output/resend-advice.js';
import type { BatchResult } from '../../../client/send-batches.js';
import { summarizeVariants } from '../../../client/variant-summary.js';
import type { CommandCtx } from '../../shared/command.js';
import { locateRun } from '../../shared/locate-run.js';
import { locksDir } from '../../shared/own-run.js';
import { openReportFile, writeReport } from '../../shared/report-file.js';
import { familyFlags, resendAdvice, resendRun, settingsFlags } from '../../shared/resend-command.js';
import { familyRuns, inputGivenAgainBy, remainingOf, resendWithInput, sentAny, vouchedInput } from '../../shared/resume.js';
import { runnable } from '../../shared/runnable.js';
import { voucherFor } from '../../shared/vouched-flags.js';
import { locateFamily, showFamily } from '../../shared/target-runs.js';
import { runsShowOptionsSchema, type RunsShowOptions } from './options.js';

/** One run as data: its detail, its batches and what a resend would send (`runs show` and the MCP tool show_run). */
/**
 * `given`: the settings flags the caller was given first-hand besides the environment (the MCP server's own):
 * of the flags naming a host or a file, a command built from a journal not written here repeats only those
 * (vouched-flags.ts).
 */
export async function showRun(options: Omit<RunsShowOptions, 'json'>, ctx: Pick<Ctx, 'env' | 'cwd'>, scrubber: SecretScrubber, given: readonly string[] = []): Promise<{ detail: RunDetail; results: BatchResult[]; advice: ResendAdvice | undefined }> {
  const { path, ref } = locateRun(options.run, ctx);
  // The client IDs of what it left (for the resend advice), and all of them only for a report.
  const run = options.report !== undefined ? readRun(path, locksDir(ctx.env)) : readRunLeft(path, locksDir(ctx.env));
  const report = options.report === undefined ? undefined : await openReportFile(options.report, ctx.cwd, { force: options.force === true, runIds: [run.header.run_id] });
  if (report) await writeReport(report, run.results, scrubber, run.header.run_id);
  const base = overview(run);
  // What a resend of this run would send: what the run and its resends left together.
  const members = run.state === 'running' || (run.incomplete && !sentAny(run)) ? undefined : familyRuns(run, ctx.env);
  // Stopped before the end of its input: it needs that input again, unless a resend of it already read it.
  const givenAgainBy = members && inputGivenAgainBy(run, members);
  const whole = members !== undefined && (!run.incomplete || givenAgainBy !== undefined);
  // A resend still sending owns what is left: nothing to advise until it ends (docs/behaviour.md#ownership).
  const busy = members?.find((member) => member.state === 'running');
  const left = whole && !busy ? remainingOf(members, false) : undefined;
  // A run resent, or a resend: what the family delivered together, as a --once re-run that finds it done says.
  const family = members && members.length > 1 ? familyOutcome(members) : undefined;
  // A target of a run of several: resend takes the family without --profile (each target's is in its journal).
  const voucher = voucherFor(path, ctx, given);
  const { flags, leftOut } = voucher(typeof run.header.targets === 'string' ? familyFlags(run.header.argv) : settingsFlags(run.header.argv));
  const advice = left ? resendAdvice(resendRun(ref, undefined, flags), left, base.audience, (family?.summary ?? base.summary).batches.total, run.header.dry_run) : undefined;
  // Stopped before it read all of its input: the one command is the resend given that input again.
  const withInput = run.state === 'running' || whole || busy ? undefined : resendWithInput(run, ref, voucher);
  const leftOutOf = withInput !== undefined ? vouchedInput(run, voucher).leftOut : leftOut;
  // The runs naming it as parent, and every later resend of its family, which sent what it left too (as `runs` says).
  const later = members ? (resentBy(members.map((member) => member.header)).get(run.header.run_id) ?? []) : [];
  const children = [...new Set([...resendsOf([dirname(path), runsDir(ctx.env)], run.header.run_id), ...later])];
  // Cut short while planning, nothing sent: a --once re-run may have sent afresh in its place (docs/behaviour.md#once).
  const replacedBy = run.incomplete && !sentAny(run) ? replacementOf([dirname(path), runsDir(ctx.env)], run.header.run_id) : undefined;
  const variants = summarizeVariants(run.results);
  const detail: RunDetail = {
    ...base,
    message_ids: messageIds(run.results),
    ...(variants ? { variants } : {}),
    ...(family ? { family } : {}),
    ...(givenAgainBy !== undefined ? { input_given_again_by: givenAgainBy } : {}),
    ...(busy ? { running_resend: { run_id: busy.header.run_id, pid: busy.header.pid } } : {}),
    ...(children.length > 0 ? { resent_by: children } : {}),
    ...(replacedBy !== undefined ? { replaced_by: replacedBy } : {}),
    ...(report ? { report: report.path } : {}),
    ...(advice?.command ? { resend_command: advice.command } : withInput ? { resend_command: withInput } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeInDoubtCommand ? { include_in_doubt_command: advice.includeInDoubtCommand } : {}),
    ...((advice?.command ?? advice?.includeInDoubtCommand ?? withInput) !== undefined && leftOutOf.length > 0 ? { left_out_of_command: leftOutOf } : {}),
  };
  return { detail, results: run.results, advice };
}

export async function runsShow(options: RunsShowOptions, ctx: CommandCtx): Promise<RunShowOutcome> {
  // A run of several targets shows every target (docs/behaviour.md#targets); --report writes the one run named.
  const family = options.report === undefined ? locateFamily(options.run, ctx) : undefined;
  if (family) return { exitCode: ExitCode.ok, family: await showFamily(family, ctx, ctx.scrubber, showRun) };
  return { exitCode: ExitCode.ok, ...(await showRun(options, ctx, ctx.scrubber)) };
}

export const command = runnable(runsShowOptionsSchema, runsShow, printRunDetail);
