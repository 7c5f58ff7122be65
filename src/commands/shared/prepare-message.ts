// Stage 1 of a send: the message, assembled from the file and flags and checked before anything touches the
// network or the credentials.
import type { Ctx } from '../../context.js';
import { usageError } from '../../errors.js';
import { readMessageInput, type MessageInputOptions, type ReadInputOptions } from '../../input/read-message-input.js';
import { assembleMessage } from '../../message/assemble.js';
import { dryRunConflict } from '../../message/dry-run-conflict.js';
import { validateAssembledWithoutRecipients } from '../../message/validate-assembled.js';
import { splitVariants, validateWithVariants } from '../../message/validate-variants.js';
import { mergeVariant } from '../../message/variants.js';
import { isGrowing, type ClientIdSource, type RecipientLanguageSource } from '../../message/recipients.js';
import type { MessageIssue, NamedAudience, PushMessage, ValidationResult } from '../../message/types.js';
import { annotateIssues } from '../../output/annotations.js';

export type PreparedMessage =
  | { ok: false; validation: ValidationResult }
  | {
      ok: true;
      body: PushMessage;
      /** Recipients kept beside the body (a ClientIdStore for a file): sendBatches puts each batch's IDs into the body. */
      clientIds: ClientIdSource | undefined;
      warnings: MessageIssue[];
      notes: MessageIssue[];
      /** The message file's variants, each the whole message as sent (docs/behaviour.md#variants). */
      variants?: Record<string, PushMessage>;
      /** Each client ID's language, by position, where the input said (a CSV's `language` column). */
      languages?: RecipientLanguageSource;
      /** The named audience (`--to`) that chose the recipients. */
      audience?: NamedAudience;
    };

export async function prepareMessage(
  options: MessageInputOptions & { dryRun: boolean; strict?: boolean; validate?: boolean },
  ctx: Ctx,
  read: ReadInputOptions = {},
): Promise<PreparedMessage> {
  const assembled = assembleMessage(await readMessageInput(options, ctx, read));
  const conflict = dryRunConflict(assembled.message, options.dryRun);
  if (conflict) throw conflict;
  if (options.dryRun) assembled.message.dry_run = true;
  const recipients = assembled.clientIds;
  const languages = { ...(assembled.languages ? { languages: assembled.languages } : {}), ...(assembled.audience ? { audience: assembled.audience } : {}) };
  if (options.validate === false) {
    const { base: message, variants } = splitVariants(assembled.message);
    if (!isSendableAsWritten(message)) throw usageError('condition must be an object, even with --no-validate', 'write "condition": { "type": 0 } for all devices, or give recipients with --all, --client-id or targeting flags');
    // An empty list goes out as it is, for the service to judge.
    const body: PushMessage = recipients?.length === 0 ? { ...message, condition: { ...message.condition, client_ids: [] } } : message;
    return { ok: true, body, clientIds: recipients ?? (body.condition?.type === 2 ? body.condition.client_ids : undefined), warnings: [], notes: assembled.notes, ...unvalidatedVariants(message, variants), ...languages };
  }
  const result = validateWithVariants(assembled, { strict: options.strict === true }, validateAssembledWithoutRecipients);
  const notes = [...assembled.notes, ...result.notes];
  await annotateIssues(result, options, ctx);
  if (!result.body) {
    // A list still being read is read no further: nothing will be sent.
    if (isGrowing(recipients)) recipients.cancel();
    return { ok: false, validation: { ...result, notes } };
  }
  const body = result.body;
  return { ok: true, body, clientIds: recipients ?? (body.condition?.type === 2 ? body.condition.client_ids : undefined), warnings: result.warnings, notes, ...(result.variants ? { variants: result.variants } : {}), ...languages };
}

/** With --no-validate, each variant merged over the message as written, for the service to judge. */
function unvalidatedVariants(message: Record<string, unknown>, variants: unknown): { variants?: Record<string, PushMessage> } {
  if (typeof variants !== 'object' || variants === null || Array.isArray(variants)) return {};
  const merged: Record<string, PushMessage> = {};
  for (const [tag, variant] of Object.entries(variants)) {
    if (typeof variant !== 'object' || variant === null || Array.isArray(variant)) continue;
    const whole = mergeVariant(message, variant as Record<string, unknown>);
    if (isSendableAsWritten(whole)) merged[tag] = whole;
  }
  return Object.keys(merged).length > 0 ? { variants: merged } : {};
}

/**
 * With --no-validate a message goes out as written, for the service to judge. pushctl itself reads only its
 * condition (each batch's client IDs go into it), so that alone must be an object when it is there.
 */
function isSendableAsWritten(message: Record<string, unknown>): message is Record<string, unknown> & PushMessage {
  const { condition } = message;
  return condition === undefined || (typeof condition === 'object' && condition !== null && !Array.isArray(condition));
}
