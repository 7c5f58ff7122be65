// The options every delivering command takes (send, dry-run, resend), as one schema their options extend:
// the one place these values are bounded (commander only declares the flags), for the CLI and the action
// alike. A value out of range is a usage error naming the flag and the range, before anything is read or sent.
// zod/mini, as the message schema: the full zod API weighs 450 kB in every command file that loads it.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { optionalFlag } from './option-kinds.js';
import { keptFile, wholeNumberFlag } from './check-options.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import { DEFAULT_RETRY_POLICY } from '../../client/retry.js';

export const deliveryOptionsSchema = z.object({
  batchSize: z.optional(wholeNumberFlag('--batch-size', 1, MAX_BATCH_SIZE, `the service takes at most ${MAX_BATCH_SIZE} client IDs per request`)),
  concurrency: z.optional(wholeNumberFlag('--concurrency', 1, 1000)),
  maxAttempts: z.optional(wholeNumberFlag('--max-attempts', 1, DEFAULT_RETRY_POLICY.maxAttempts, '1 = no retries')),
  rate: z.optional(wholeNumberFlag('--rate', 0, 100_000, '0 = no limit')),
  retryInDoubt: optionalFlag,
  report: z.optional(keptFile(z.string(), '--report', 'the report', 'report.json')),
  /** `--force`: `--report` may replace a file that is not a report of this run. */
  force: optionalFlag,
  /** false with `--no-wait`: refuse when another process owns the key or the run. */
  wait: optionalFlag,
  /** `--journal <path>`, or false with `--no-journal`. */
  journal: z.optional(keptFile(z.union([z.string(), z.boolean()]), '--journal', 'the journal', 'run.jsonl')),
  includeInDoubt: optionalFlag,
  json: optionalFlag,
  quiet: optionalFlag,
  verbose: optionalFlag,
});

export type DeliveryOptions = z.infer<typeof deliveryOptionsSchema>;

type Tuning = Partial<Pick<DeliveryOptions, 'concurrency' | 'rate' | 'retryInDoubt' | 'maxAttempts' | 'journal'>> & { human: boolean; verbose: boolean };

/**
 * The delivery options a run passes on to the engine as given (absent ones keep the engine's defaults), and
 * whether it prints for people (progress, diagnostics) or verbosely.
 */
export function deliveryTuning(options: DeliveryOptions): Tuning {
  const picked: Tuning = { human: !options.json && !options.quiet, verbose: options.verbose === true };
  for (const key of ['concurrency', 'rate', 'retryInDoubt', 'maxAttempts', 'journal'] as const) {
    if (options[key] !== undefined) (picked as Record<string, unknown>)[key] = options[key];
  }
  return picked;
}
