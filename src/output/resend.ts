// How `pushctl resend` ends: the preview of what would go (--dry-run, or nothing left), or the delivery.
import type { Ctx } from '../context.js';
import type { HeaderRecord } from '../journal/records.js';
import { printDelivery, type DeliveryOutcome } from './delivery.js';
import { formatResendPreview, resendPreviewDocument, type Left, type PreviewDestination } from './resend-preview.js';
import { styleFor, type Style } from './style.js';
import { escapeControl } from './escape-control.js';
import { printTargets, type TargetsOutcome } from './targets.js';

export type ResendOutcome =
  | { kind: 'preview'; exitCode: number; header: HeaderRecord; left: Left; dryRun: boolean; destination?: PreviewDestination }
  | { kind: 'delivered'; exitCode: number; delivery: DeliveryOutcome }
  // A run of several targets (docs/behaviour.md#targets): what each target would send, or the delivery of each.
  | TargetsPreview
  | { kind: 'targets'; exitCode: number; targets: TargetsOutcome };

/** One target of a family resend's preview: what it would send, and where. */
export interface TargetPreview {
  profile: string;
  header: HeaderRecord;
  left: Left & { rejected: number };
  destination?: PreviewDestination;
}

export interface TargetsPreview {
  kind: 'targets-preview';
  exitCode: number;
  dryRun: boolean;
  previews: TargetPreview[];
}

export async function printResend(outcome: ResendOutcome, options: { json?: boolean | undefined; quiet?: boolean | undefined }, ctx: Pick<Ctx, 'stdout' | 'stderr' | 'env'> & { style?: Style }): Promise<void> {
  if (outcome.kind === 'delivered') {
    const mode = { ...(options.json ? { json: true } : {}), ...(options.quiet ? { quiet: true } : {}) };
    printDelivery(outcome.delivery, mode, ctx, ctx.style ?? (await styleFor(ctx.stderr, ctx.env)));
    return;
  }
  if (outcome.kind === 'targets') return printTargets(outcome.targets, options, ctx, ctx.style ?? (await styleFor(ctx.stderr, ctx.env)));
  if (outcome.kind === 'targets-preview') return printTargetsPreview(outcome, options, ctx);
  const { header, left, dryRun, destination } = outcome;
  if (options.json) ctx.stdout.write(`${JSON.stringify(resendPreviewDocument(header, left, dryRun, destination), null, 2)}\n`);
  else if (!options.quiet) ctx.stderr.write(formatResendPreview(header, left, dryRun, destination));
}

function printTargetsPreview(outcome: TargetsPreview, options: { json?: boolean | undefined; quiet?: boolean | undefined }, ctx: Pick<Ctx, 'stdout' | 'stderr'>): void {
  if (options.json) {
    // Each target's row is the document of a resend of its run alone, with its profile.
    const targets = outcome.previews.map((p) => {
      const { ok: _ok, exit_code: _exitCode, ...row } = resendPreviewDocument(p.header, p.left, outcome.dryRun, p.destination);
      return { profile: p.profile, ...row };
    });
    ctx.stdout.write(`${JSON.stringify({ ok: true, exit_code: outcome.exitCode, dry_run: outcome.dryRun, targets }, null, 2)}\n`);
  } else if (!options.quiet) {
    for (const p of outcome.previews) ctx.stderr.write(`target ${escapeControl(p.profile)}: ${formatResendPreview(p.header, p.left, outcome.dryRun, p.destination)}`);
  }
}
