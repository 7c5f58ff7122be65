// How `pushctl resend` ends: the preview of what would go (--dry-run, or nothing left), or the delivery.
import type { Ctx } from '../context.js';
import type { HeaderRecord } from '../journal/records.js';
import { printDelivery, type DeliveryOutcome } from './delivery.js';
import { formatResendPreview, resendPreviewDocument, type Left, type PreviewDestination } from './resend-preview.js';
import { styleFor, type Style } from './style.js';

export type ResendOutcome =
  | { kind: 'preview'; exitCode: number; header: HeaderRecord; left: Left; dryRun: boolean; destination?: PreviewDestination }
  | { kind: 'delivered'; exitCode: number; delivery: DeliveryOutcome }
  // A run of several targets: resendTargets (commands/shared/targets-resend.ts) printed its table itself.
  | { kind: 'targets'; exitCode: number };

export async function printResend(outcome: ResendOutcome, options: { json?: boolean | undefined; quiet?: boolean | undefined }, ctx: Pick<Ctx, 'stdout' | 'stderr' | 'env'> & { style?: Style }): Promise<void> {
  if (outcome.kind === 'delivered') {
    const mode = { ...(options.json ? { json: true } : {}), ...(options.quiet ? { quiet: true } : {}) };
    printDelivery(outcome.delivery, mode, ctx, ctx.style ?? (await styleFor(ctx.stderr, ctx.env)));
    return;
  }
  if (outcome.kind === 'targets') return;
  const { header, left, dryRun, destination } = outcome;
  if (options.json) ctx.stdout.write(`${JSON.stringify(resendPreviewDocument(header, left, dryRun, destination), null, 2)}\n`);
  else if (!options.quiet) ctx.stderr.write(formatResendPreview(header, left, dryRun, destination));
}
