// show_run: `pushctl runs show --json` as a tool: one run's outcome, message_ids and resend command.
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { ExitCode } from '../../../errors.js';
import { formatRunDetail } from '../../../output/runs.js';
import { runOutputSchema } from '../output-schemas.js';
import { defineTool } from '../tool.js';
import { flagsOfSettings } from '../../shared/resend-command.js';
import { settingsOptions } from '../settings-options.js';

const args = z.strictObject({ run: z.string().check(z.minLength(1, 'run needs a run id: take one from list_runs')) });

export const showRunTool = defineTool({
  name: 'show_run',
  title: 'Show one run',
  description: "One run's outcome from its journal, as `pushctl runs show` prints it: state, counts, message_ids, and the one command that sends what it left (resend_command; include_in_doubt_command for recipients in doubt). A run of several targets (a profile list) is shown whole: target_runs has each target's.",
  args,
  result: runOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ run }: z.infer<typeof args>, { ctx, scrubber, options }) {
    const { showRun } = await import('../../runs/show/run.js');
    // The server's own settings flags are first-hand: a command built from the journal may repeat a host or a
    // file they name (docs/behaviour.md#trust), as a run sent through the server names them.
    const given = flagsOfSettings(settingsOptions(options));
    // A run of several targets is shown whole, as runs show does (docs/behaviour.md#targets): every target and the one command.
    const { locateFamily, showFamily } = await import('../../shared/target-runs.js');
    const family = locateFamily(run, ctx);
    if (family) {
      const shown = await showFamily(family, ctx, scrubber, showRun, given);
      return { document: { ok: true, exit_code: ExitCode.ok, run: shown.run }, text: shown.text, isError: false };
    }
    const { detail, results, advice } = await showRun({ run }, ctx, scrubber, given);
    return { document: { ok: true, exit_code: ExitCode.ok, run: detail }, text: formatRunDetail(detail, results, advice), isError: false };
  },
});
