// validate_message: `pushctl validate --json` as a tool. No network and no credentials.
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { ExitCode } from '../../../errors.js';
import { describeValidation } from '../../../output/validation.js';
import { callContext, PLAIN_ENV } from '../call-context.js';
import { messageFields, messageInputOptions } from '../message-arguments.js';
import { validationOutputSchema } from '../output-schemas.js';
import { defineTool } from '../tool.js';
import { settingsOptions } from '../settings-options.js';

const args = z.strictObject({ ...messageFields, profile: z.optional(z.string()) });

export const validateMessageTool = defineTool({
  name: 'validate_message',
  title: 'Validate a push message',
  description:
    'Check a push message locally, as `pushctl validate` does: no network, no credentials. Give a message object in the service\'s own shape (its whole schema: message_schema) and/or the arguments for its fields. Returns the normalised body that would be sent, or the findings (errors, warnings), each with the JSON path it is about and a fix.',
  args,
  result: validationOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ profile, ...fields }: z.infer<typeof args>, { ctx, options }) {
    // The command's own code is loaded from its file (scripts/build.mjs), not bundled again into the tools.
    const { validateRun } = await import('../../validate/run.js');
    // `to` names an audience of the config file and profile the other tools use: the server's, or the call's profile.
    const { config, profile: chosen } = settingsOptions(options, profile);
    const where = { ...(config !== undefined ? { config } : {}), ...(chosen !== undefined ? { profile: chosen } : {}) };
    const result = await validateRun({ ...messageInputOptions(fields), ...where }, callContext(ctx, fields.message));
    const valid = result.errors.length === 0;
    const exitCode = valid ? ExitCode.ok : ExitCode.invalidMessage;
    const words = await describeValidation(result, { stderr: { write: () => true }, env: PLAIN_ENV });
    // What `validate --json` prints and what `validate` prints on stdout: with variants, each one as sent.
    const variants = result.variants ? { variants: result.variants } : {};
    const shown = result.variants ? { base: result.body, variants: result.variants } : result.body;
    return {
      document: { ok: valid, exit_code: exitCode, valid, body: result.body ?? null, ...variants, errors: result.errors, warnings: result.warnings, notes: result.notes },
      text: words,
      ...(result.body ? { verbatim: `${JSON.stringify(shown, null, 2)}\n` } : {}),
      // Findings are this tool's answer, not its failure: the call did what it was asked.
      isError: false,
    };
  },
});
