import type { Ctx } from '../context.js';
import { ExitCode } from '../errors.js';
import { readMessageInput, type MessageInputOptions } from '../input/read-message-input.js';
import { assembleMessage } from '../message/assemble.js';
import { validateAssembled } from '../message/validate-assembled.js';
import { validateWithVariants, type VariantValidation } from '../message/validate-variants.js';
import { describeValidation } from '../output/validation.js';
import { annotateIssues } from '../output/annotations.js';
import { envelopeText } from '../output/envelope.js';
import { applyAudience } from './shared/apply-audience.js';

export interface ValidateCommandOptions extends MessageInputOptions {
  strict?: boolean;
  json?: boolean;
  quiet?: boolean;
  /** `--to <name>` and where its audience is found: the config file (`--config`) and profile (`--profile`). */
  to?: string;
  config?: string;
  profile?: string;
}

/** Assembles and checks a message locally (annotating it under GitHub Actions): no network, no credentials. */
export async function validateRun(options: ValidateCommandOptions, ctx: Ctx): Promise<VariantValidation> {
  const assembled = assembleMessage(await readMessageInput(await applyAudience(options, ctx), ctx));
  // A message file's variants are checked whole, each as it would be sent (docs/behaviour.md#variants).
  const result = validateWithVariants(assembled, { strict: options.strict === true }, validateAssembled);
  await annotateIssues(result, options, ctx);
  return { ...result, notes: [...assembled.notes, ...result.notes] };
}

/** `pushctl validate`: exit 0 valid, 3 invalid. */
export async function validateCommand(options: ValidateCommandOptions, ctx: Ctx): Promise<number> {
  const result = await validateRun(options, ctx);
  const { notes } = result;
  const valid = result.errors.length === 0;

  if (options.json) {
    ctx.stdout.write(envelopeText(valid ? ExitCode.ok : ExitCode.invalidMessage, { valid, body: result.body ?? null, ...(result.variants ? { variants: result.variants } : {}), errors: result.errors, warnings: result.warnings, notes }));
  } else if (!options.quiet) {
    ctx.stderr.write(await describeValidation({ ...result, notes }, ctx));
    // With variants, one JSON document still: the base message and every variant as sent.
    if (result.body) ctx.stdout.write(`${JSON.stringify(result.variants ? { base: result.body, variants: result.variants } : result.body, null, 2)}\n`);
  }
  return valid ? ExitCode.ok : ExitCode.invalidMessage;
}
