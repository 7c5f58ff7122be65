// The options of `pushctl runs show <run>`, checked by one schema.
import * as z from 'zod/mini';
import '../../../message/zod-jitless.js';
import { keptFile } from '../../shared/check-options.js';

export const runsShowOptionsSchema = z.object({
  /** A run id (from `pushctl runs`) or the path of a journal file. */
  run: z.string(),
  json: z.optional(z.boolean()),
  report: z.optional(keptFile(z.string(), '--report', 'the report', 'report.json')),
  /** `--force`: `--report` may replace a file that is not a report of this run. */
  force: z.optional(z.boolean()),
});

export type RunsShowOptions = z.infer<typeof runsShowOptionsSchema>;
