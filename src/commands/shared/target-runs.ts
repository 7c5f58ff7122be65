// `pushctl runs show` of a run of several targets (docs/behaviour.md#targets): every target's detail, then
// the one command that finishes them all, `pushctl resend <family>`.
import { dirname } from 'node:path';
import type { Ctx } from '../../context.js';
import type { BatchResult } from '../../client/send-batches.js';
import { journalHeader, runsDir } from '../../journal/runs-dir.js';
import { familyMembers, familyOverview } from '../../journal/target-family.js';
import { escapeControl } from '../../output/escape-control.js';
import { formatResendAdvice, type ResendAdvice } from '../../output/resend-advice.js';
import { formatRunDetail, leftOutLine, type RunDetail } from '../../output/runs.js';
import { stateWords } from '../../journal/read-run.js';
import type { SecretScrubber } from '../../output/redact.js';
import { locateRun } from './locate-run.js';
import { familyFlags, resendAdvice, resendRun } from './resend-command.js';
import { counted } from '../../counted.js';
import { voucherFor } from './vouched-flags.js';

type ShowRun = (options: { run: string }, ctx: Pick<Ctx, 'env' | 'cwd'>, scrubber: SecretScrubber, given?: readonly string[]) => Promise<{ detail: RunDetail; results: BatchResult[]; advice: ResendAdvice | undefined }>;

/** The family of the run the user named, with its members' journals; undefined for a run of one target. */
export function locateFamily(run: string, ctx: Pick<Ctx, 'env' | 'cwd'>): { family: string; paths: string[] } | undefined {
  const { path } = locateRun(run, ctx);
  const family = journalHeader(path)?.targets;
  if (typeof family !== 'string') return undefined;
  return { family, paths: familyMembers([dirname(path), runsDir(ctx.env)], family).map((member) => member.path) };
}

/**
 * A target's detail without a next step of its own: the family's one command finishes every target, and a
 * resend of one target's journal is that same resend, so a second command would only say it again.
 */
function withoutNextStep(detail: RunDetail): RunDetail {
  const { resend_command: _command, include_in_doubt_command: _inDoubtCommand, in_doubt: _inDoubt, left_out_of_command: _leftOut, ...rest } = detail;
  return rest;
}

export interface FamilyShown {
  run: RunDetail & { target_runs: RunDetail[] };
  text: string;
}

/**
 * Every target's detail (as `runs show` of each) and the family's line and advice, as data and as text.
 * `given`: the caller's first-hand settings flags besides the environment (see showRun).
 */
export async function showFamily(found: { family: string; paths: string[] }, ctx: Pick<Ctx, 'env' | 'cwd'>, scrubber: SecretScrubber, showRun: ShowRun, given: readonly string[] = []): Promise<FamilyShown> {
  const shown = [];
  for (const path of found.paths) {
    const { detail, ...rest } = await showRun({ run: path }, ctx, scrubber, given);
    shown.push({ ...rest, detail: withoutNextStep(detail) });
  }
  const lead = shown[0]!.detail;
  const left = shown.reduce((sum, s) => ({ notSent: sum.notSent + (s.advice?.notSent ?? 0), inDoubt: sum.inDoubt + (s.advice?.inDoubt ?? 0) }), { notSent: 0, inDoubt: 0 });
  const argv = (journalHeader(lead.path)?.argv ?? []) as string[];
  const { flags, leftOut } = voucherFor(lead.path, ctx, given)(familyFlags(argv));
  const advice = resendAdvice(resendRun(found.family, undefined, flags), left, lead.audience, undefined, lead.dry_run);
  const overview = familyOverview(shown.map((s) => s.detail));
  const run: FamilyShown['run'] = {
    ...overview,
    message_ids: shown.flatMap((s) => s.detail.message_ids),
    target_runs: shown.map((s) => s.detail),
    ...(advice?.command ? { resend_command: advice.command } : {}),
    ...(advice && advice.inDoubt > 0 ? { in_doubt: advice.inDoubt } : {}),
    ...(advice?.includeInDoubtCommand ? { include_in_doubt_command: advice.includeInDoubtCommand } : {}),
    ...(advice && leftOut.length > 0 ? { left_out_of_command: leftOut } : {}),
  };
  const running = shown.some((s) => s.detail.state === 'running');
  let text = `run ${escapeControl(found.family)} (${stateWords(overview.state)}, ${counted(shown.length, 'target')}: ${shown.map((s) => escapeControl(s.detail.profile ?? '?')).join(', ')})\n`;
  for (const s of shown) text += formatRunDetail(s.detail, s.results, undefined, true);
  text += advice ? formatResendAdvice(advice) + leftOutLine(run.left_out_of_command) : running ? '' : 'nothing left to send\n';
  return { run, text };
}
