// The options of `pushctl runs`, checked by one schema (the MCP tool list_runs checks its limit with it too).
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { wholeNumberFlag } from '../shared/check-options.js';

export const runsOptionsSchema = z.object({
  json: z.optional(z.boolean()),
  /** How many runs to list (default 20). */
  limit: z.optional(wholeNumberFlag('--limit', 1, 100_000)),
});

export type RunsOptions = z.infer<typeof runsOptionsSchema>;
