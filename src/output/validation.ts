// How a validation result reads for a person: the verdict, then errors, warnings and normalisations.
import type { Ctx } from '../context.js';
import type { ValidationResult } from '../message/types.js';
import { formatIssueList } from './issues.js';
import { styleFor } from './style.js';

/** The human report on stderr: verdict, errors, warnings, normalisations applied. */
export async function describeValidation(result: ValidationResult & { variants?: Record<string, unknown> }, ctx: Pick<Ctx, 'stderr' | 'env'>): Promise<string> {
  const style = await styleFor(ctx.stderr, ctx.env);
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const verdict = result.errors.length
    ? style.error(`invalid: ${count(result.errors.length, 'error')}, nothing would be sent`)
    : style.ok(`valid${result.warnings.length ? ` (${count(result.warnings.length, 'warning')})` : ''}`);
  // Each variant was checked as the whole message it becomes (docs/behaviour.md#variants).
  const variants = result.variants ? `variants: ${Object.keys(result.variants).join(', ')} and the base message, each checked whole (stdout shows each as sent)\n` : '';
  return [
    `${verdict}\n`,
    variants,
    formatIssueList('errors:', result.errors, style, style.error),
    formatIssueList('warnings:', result.warnings, style, style.warn),
    // What was normalised matters only for a message that will be sent; under errors it hides them.
    result.errors.length === 0 ? formatIssueList('normalised:', result.notes, style, style.dim) : '',
  ].join('');
}
