// list_runs: `pushctl runs --json` as a tool: the newest runs of the journal directory.
import '../../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { ExitCode } from '../../../errors.js';
import { formatRunTable } from '../../../output/runs.js';
import { runsOutputSchema } from '../output-schemas.js';
import { defineTool } from '../tool.js';
import { parseOptions } from '../../shared/check-options.js';
import { runsOptionsSchema } from '../../runs/options.js';

const args = z.strictObject({ limit: z.optional(z.int()) });

export const listRunsTool = defineTool({
  name: 'list_runs',
  title: 'List recent runs',
  description: 'The newest send and dry-run runs from their journals, as `pushctl runs` lists them: state (sent, partly_sent, rejected, not_sent, in_doubt, interrupted, killed, incomplete, running), exit code, and its summary: recipients and batches accepted, rejected, in doubt and not sent, as send_message counts them.',
  args,
  result: runsOutputSchema,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ limit }: z.infer<typeof args>, { ctx }) {
    // The command's own code is loaded from its file (scripts/build.mjs), not bundled again into the tools.
    const { listRuns } = await import('../../runs/run.js');
    // Bounded as `pushctl runs --limit` is: by the same schema.
    const { dir, runs } = listRuns(parseOptions(runsOptionsSchema, limit === undefined ? {} : { limit }), ctx);
    const text = runs.length === 0 ? `no runs yet in ${dir}\n` : formatRunTable(runs, 120);
    return { document: { ok: true, exit_code: ExitCode.ok, runs_dir: dir, runs }, text, isError: false };
  },
});
