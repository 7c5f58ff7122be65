// How a validation result reads for a person: the verdict, then errors, warnings and normalisations.
import type { Ctx } from '../context.js';
import type { ValidationResult } from '../message/types.js';
import type { VariantValidation } from '../message/validate-variants.js';
import { formatIssueList } from './issues.js';
import { styleFor } from './style.js';
import { envelopeText } from './envelope.js';
import type { ExitCode } from '../errors.js';

/** The human report on stderr: verdict, errors, warnings, normalisations applied. */
export async function describeValidation(result: ValidationResult & { variants?: Record<string, unknown> }, ctx: Pick<Ctx, 'stderr' | 'env'>): Promise<string> {
  const style = await styleFor(ctx.stderr, ctx.env);
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const verdict = result.errors.length
    ? style.error(`invalid: ${count(result.errors.length, 'error')}, nothing would be sent`)
    : style.ok(`valid${result.warnings.length ? ` (${count(result.warnings.length, 'warning')})` : ''}`);
  // Each variant was checked as the whole message it becomes (docs/behaviour.md#variants).
  const tags = Object.keys(result.variants ?? {}).join(', ');
  const variants = !result.variants
    ? ''
    : // No recipient has a variant's language (the warnings say which): an empty list of them read "variants:  and …".
      tags === ''
      ? 'variants: none is sent: every recipient gets the base message\n'
      : baseSent(result)
        ? `variants: ${tags} and the base message, each checked whole (stdout shows each as sent)\n`
        : `variants: ${tags}, each checked whole (stdout shows each as sent; the base message goes to no one)\n`;
  return [
    `${verdict}\n`,
    variants,
    formatIssueList('errors:', result.errors, style, style.error),
    formatIssueList('warnings:', result.warnings, style, style.warn),
    // What was normalised matters only for a message that will be sent; under errors it hides them.
    result.errors.length === 0 ? formatIssueList('normalised:', result.notes, style, style.dim) : '',
  ].join('');
}

/**
 * Whether the base message of a message with variants goes to anyone: not when every recipient (or every
 * language listed) has a variant. Its body is then addressed to no one, which for targeting is an empty
 * language list, read by the service as every language: printed "as sent", it would read as a push to all.
 */
const baseSent = (result: ValidationResult) => !result.notes.some((note) => note.rule === 'base-unused');

/** What `pushctl validate` comes to: exit 0 valid, 3 invalid, and the result. */
export interface ValidateOutcome {
  exitCode: ExitCode;
  result: VariantValidation;
}

/** The verdict on stderr and the body on stdout; or one JSON document; or, with --quiet, nothing. */
export async function printValidate(outcome: ValidateOutcome, options: { json?: boolean | undefined; quiet?: boolean | undefined }, ctx: Pick<Ctx, 'stdout' | 'stderr' | 'env'>): Promise<void> {
  const { result } = outcome;
  if (options.json) {
    ctx.stdout.write(envelopeText(outcome.exitCode, { valid: result.errors.length === 0, body: result.body ?? null, ...(result.variants ? { variants: result.variants } : {}), errors: result.errors, warnings: result.warnings, notes: result.notes }));
  } else if (!options.quiet) {
    ctx.stderr.write(await describeValidation(result, ctx));
    // With variants, one JSON document still: the base message (when it is sent) and every variant as sent.
    const shown = !result.variants ? result.body : baseSent(result) ? { base: result.body, variants: result.variants } : { variants: result.variants };
    if (result.body) ctx.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  }
}
