// dry_run and send_message: `pushctl dry-run --json` and `pushctl send --json` as tools, through the very
// same path (send/run.ts: --once, the journal, the destination, delivery). Only the words differ.
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { sendOptionsSchema } from '../../send/options.js';
import { parseOptions } from '../../shared/check-options.js';
import { flagsOfSettings } from '../../shared/resend-command.js';
import { deliveryDocument, printDelivery } from '../../../output/delivery.js';
import { printSkipped, skippedDocument } from '../../../output/skipped-run.js';
import { plainStyle } from '../../../output/style.js';
import { describeValidation } from '../../../output/validation.js';
import { callContext, captured, PLAIN_ENV } from '../call-context.js';
import { messageFields, messageInputOptions } from '../message-arguments.js';
import { deliveryOutputSchema } from '../output-schemas.js';
import { errorLines } from '../results.js';
import { settingsOptions } from '../settings-options.js';
import { defineTool, type ToolAnswer, type ToolCall } from '../tool.js';
import { printTargets, targetsDocument } from '../../../output/targets.js';

const args = z.strictObject({
  ...messageFields,
  once: z.optional(z.string().check(z.minLength(1, 'once needs a key: e.g. "release-1.4.0"'))),
  includeInDoubt: z.optional(z.boolean()),
  profile: z.optional(z.string()),
});
type Args = z.infer<typeof args>;

async function deliverMessage(name: string, dryRun: boolean, fields: Args, { ctx, scrubber, options }: ToolCall): Promise<ToolAnswer> {
  const { once, includeInDoubt, profile, ...message } = fields;
  const settings = settingsOptions(options, profile);
  // Checked by send's own options schema, as `pushctl send`'s flags are.
  const sendOptions = parseOptions(sendOptionsSchema, {
    ...settings,
    ...(options.verbose ? { verbose: true } : {}),
    ...messageInputOptions(message),
    dryRun,
    json: true,
    ...(once !== undefined ? { once } : {}),
    ...(includeInDoubt !== undefined ? { includeInDoubt } : {}),
  });
  // The command's own code is loaded from its file (scripts/build.mjs), not bundled again into the tools.
  const { send } = await import('../../send/run.js');
  // The journal's header keeps the command that started the run, with the settings flags its resend needs.
  const argv = ['mcp', name, ...flagsOfSettings(settings)];
  const outcome = await send(sendOptions, { ...callContext(ctx, message.message), scrubber, argv, style: plainStyle });
  if (outcome.kind === 'invalid') {
    const { errors, warnings, notes } = outcome.validation;
    const error = { message: `the message is invalid (${errors.length} error${errors.length === 1 ? '' : 's'}): nothing was sent`, hint: 'fix each error at its path (its fix says how), then call again; validate_message checks without sending' };
    const words = await describeValidation(outcome.validation, { stderr: { write: () => true }, env: PLAIN_ENV });
    return { document: { ok: false, exit_code: outcome.exitCode, errors, warnings, notes, error }, text: `${errorLines(error)}${words}`, isError: true };
  }
  const [document, words] =
    outcome.kind === 'skipped'
      ? [skippedDocument(outcome.skipped, outcome.exitCode) as Record<string, unknown>, captured((io) => printSkipped(outcome.skipped, outcome.exitCode, {}, io, plainStyle))]
      : outcome.kind === 'targets'
        ? [targetsDocument(outcome.targets) as Record<string, unknown>, captured((io) => printTargets(outcome.targets, {}, io, plainStyle))]
        : [{ ...deliveryDocument(outcome.delivery) }, captured((io) => printDelivery(outcome.delivery, {}, io, plainStyle))];
  const failure = document.error as { message: string; hint?: string } | undefined;
  return { document, text: `${failure ? errorLines(failure) : ''}${words}`, isError: outcome.exitCode !== 0 };
}

const DELIVERY_WORDS =
  'Give a message object in the service\'s own shape (its whole schema: message_schema) and/or the arguments for its fields, and recipients (a named audience `to`, all, clientId, or targeting such as country). `once` makes a second call with the same key send nothing (or finish what the first left). Settings (app ID, base URL, profile) are the server\'s; a profile list (`eu,us`) sends to each of those targets, a row each in `targets`; every run is journaled (list_runs, show_run).';

export const dryRunTool = defineTool({
  name: 'dry_run',
  title: 'Dry-run a push message',
  description: `Have the service check a message without delivering it ("dry_run": true), as \`pushctl dry-run\` does: returns the message_id it gave, and nothing reaches a device. ${DELIVERY_WORDS}`,
  args,
  result: deliveryOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (fields: Args, call: ToolCall) => deliverMessage('dry_run', true, fields, call),
});

export const sendMessageTool = defineTool({
  name: 'send_message',
  title: 'Send a push message',
  description: `Send a push message to real devices, as \`pushctl send\` does: returns the message_ids and the run id. It cannot be undone; try it with dry_run first. ${DELIVERY_WORDS}`,
  args,
  result: deliveryOutputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  run: (fields: Args, call: ToolCall) => deliverMessage('send_message', false, fields, call),
});
