// How `pushctl send` and `pushctl dry-run` end: the validation that stopped the message, the earlier run that
// made a --once re-run unnecessary, or the delivery; each for people or as one JSON document.
import { printTargets, type TargetsOutcome } from './targets.js';
import type { Ctx } from '../context.js';
import type { ValidationResult } from '../message/types.js';
import { printDelivery, type DeliveryOutcome } from './delivery.js';
import { envelopeText } from './envelope.js';
import { printSkipped, type SkippedRun } from './skipped-run.js';
import { styleFor, type Style } from './style.js';
import { describeValidation } from './validation.js';

/** What a send came to, for the printer and for the action and the MCP tools to read. */
export type SendOutcome =
  | { kind: 'invalid'; exitCode: number; validation: ValidationResult }
  | { kind: 'skipped'; exitCode: number; skipped: SkippedRun }
  | { kind: 'delivered'; exitCode: number; delivery: DeliveryOutcome }
  | { kind: 'targets'; exitCode: number; targets: TargetsOutcome };

export async function printSend(outcome: SendOutcome, options: { json?: boolean | undefined; quiet?: boolean | undefined }, ctx: Pick<Ctx, 'stdout' | 'stderr' | 'env'> & { style?: Style }): Promise<void> {
  const mode = { ...(options.json ? { json: true } : {}), ...(options.quiet ? { quiet: true } : {}) };
  const style = ctx.style ?? (await styleFor(ctx.stderr, ctx.env));
  switch (outcome.kind) {
    case 'invalid': {
      const { validation } = outcome;
      if (options.json) ctx.stdout.write(envelopeText(outcome.exitCode, { errors: validation.errors, warnings: validation.warnings, notes: validation.notes }));
      else ctx.stderr.write(await describeValidation(validation, ctx));
      return;
    }
    case 'skipped':
      printSkipped(outcome.skipped, outcome.exitCode, mode, ctx, style);
      return;
    case 'delivered':
      printDelivery(outcome.delivery, mode, ctx, style);
      return;
    case 'targets':
      printTargets(outcome.targets, mode, ctx, style);
  }
}
