// `pushctl validate`: assembles and checks a message locally (annotating it under GitHub Actions): no
// network, no credentials. Exit 0 valid, 3 invalid.
import type { Ctx } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { readMessageInput } from '../../input/read-message-input.js';
import { assembleMessage } from '../../message/assemble.js';
import { validateAssembled } from '../../message/validate-assembled.js';
import { validateWithVariants, type VariantValidation } from '../../message/validate-variants.js';
import { variantsAsSent } from '../../message/variants-as-sent.js';
import { annotateIssues } from '../../output/annotations.js';
import { printValidate, type ValidateOutcome } from '../../output/validation.js';
import { applyAudience } from '../shared/apply-audience.js';
import { runnable } from '../shared/runnable.js';
import { validateOptionsSchema, type ValidateOptions } from './options.js';

/** The validation result (the action and the MCP tool validate_message print it their own way). */
export async function validateRun(options: ValidateOptions, ctx: Ctx): Promise<VariantValidation> {
  const assembled = assembleMessage(await readMessageInput(await applyAudience(options, ctx), ctx));
  // A message file's variants are checked whole, each as it would be sent, and shown with the recipients send
  // gives it; an audience send refuses with variants is refused here too (docs/behaviour.md#variants).
  const checked = validateWithVariants(assembled, { strict: options.strict === true }, validateAssembled);
  const result = variantsAsSent(checked, assembled.clientIds ? { ids: assembled.clientIds, languages: assembled.languages } : undefined, assembled.audience);
  await annotateIssues(result, options, ctx);
  return { ...result, notes: [...assembled.notes, ...result.notes] };
}

export async function validate(options: ValidateOptions, ctx: Ctx): Promise<ValidateOutcome> {
  const result = await validateRun(options, ctx);
  return { exitCode: result.errors.length === 0 ? ExitCode.ok : ExitCode.invalidMessage, result };
}

export const command = runnable(validateOptionsSchema, validate, printValidate);
