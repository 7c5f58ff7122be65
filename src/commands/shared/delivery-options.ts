// The options every delivering command takes (send, dry-run, resend), checked by one schema: a value out of
// range is a usage error naming the flag and the range, before anything is read or sent.
// zod/mini, as the message schema: the full zod API weighs 450 kB in every command file that loads it.
import * as z from 'zod/mini';
import '../../message/zod-jitless.js';
import { checkOptions } from './check-options.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import { DEFAULT_RETRY_POLICY } from '../../client/retry.js';

const BATCH_SIZE = `--batch-size is out of range: use 1 to ${MAX_BATCH_SIZE} (the service takes at most ${MAX_BATCH_SIZE} client IDs per request)`;
const MAX_ATTEMPTS = `--max-attempts is out of range: use 1 (no retries) to ${DEFAULT_RETRY_POLICY.maxAttempts}`;

export const deliveryOptionsSchema = z.object({
  batchSize: z.optional(z.int().check(z.minimum(1, BATCH_SIZE), z.maximum(MAX_BATCH_SIZE, BATCH_SIZE))),
  concurrency: z.optional(z.int().check(z.minimum(1, '--concurrency must be at least 1: e.g. --concurrency 8'))),
  maxAttempts: z.optional(z.int().check(z.minimum(1, MAX_ATTEMPTS), z.maximum(DEFAULT_RETRY_POLICY.maxAttempts, MAX_ATTEMPTS))),
  rate: z.optional(z.number()),
  retryInDoubt: z.optional(z.boolean()),
  report: z.optional(z.string()),
  /** `--force`: `--report` may replace a file that is not a report of this run. */
  force: z.optional(z.boolean()),
  /** false with `--no-wait`: refuse when another process owns the key or the run. */
  wait: z.optional(z.boolean()),
  /** `--journal <path>`, or false with `--no-journal`. */
  journal: z.optional(z.union([z.string(), z.boolean()])),
  includeInDoubt: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
  quiet: z.optional(z.boolean()),
  verbose: z.optional(z.boolean()),
});

export type DeliveryOptions = z.infer<typeof deliveryOptionsSchema>;

/** Checks the delivery options; the first problem is a usage error (exit 2) that says the range. */
export function checkDeliveryOptions(options: DeliveryOptions): void {
  checkOptions(deliveryOptionsSchema, options);
}

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
