// The options every delivering command takes (send, dry-run, resend), checked by one schema: a value out of
// range is a usage error naming the flag and the range, before anything is read or sent.
import { z } from 'zod';
import { usageError } from '../../errors.js';
import { MAX_BATCH_SIZE } from '../../client/batches.js';
import { DEFAULT_RETRY_POLICY } from '../../client/retry.js';

export const deliveryOptionsSchema = z.object({
  batchSize: z
    .number()
    .int()
    .min(1, { message: `--batch-size is out of range: use 1 to ${MAX_BATCH_SIZE} (the service takes at most ${MAX_BATCH_SIZE} client IDs per request)` })
    .max(MAX_BATCH_SIZE, { message: `--batch-size is out of range: use 1 to ${MAX_BATCH_SIZE} (the service takes at most ${MAX_BATCH_SIZE} client IDs per request)` })
    .optional(),
  concurrency: z.number().int().min(1, { message: '--concurrency must be at least 1: e.g. --concurrency 8' }).optional(),
  maxAttempts: z
    .number()
    .int()
    .min(1, { message: `--max-attempts is out of range: use 1 (no retries) to ${DEFAULT_RETRY_POLICY.maxAttempts}` })
    .max(DEFAULT_RETRY_POLICY.maxAttempts, { message: `--max-attempts is out of range: use 1 (no retries) to ${DEFAULT_RETRY_POLICY.maxAttempts}` })
    .optional(),
  rate: z.number().optional(),
  retryAmbiguous: z.boolean().optional(),
  report: z.string().optional(),
  /** `--journal <path>`, or false with `--no-journal`. */
  journal: z.union([z.string(), z.boolean()]).optional(),
  includeUnknown: z.boolean().optional(),
  json: z.boolean().optional(),
  quiet: z.boolean().optional(),
  verbose: z.boolean().optional(),
});

export type DeliveryOptions = z.infer<typeof deliveryOptionsSchema>;

/** Checks the delivery options; the first problem is a usage error (exit 2) that says the range. */
export function checkDeliveryOptions(options: DeliveryOptions): void {
  const parsed = deliveryOptionsSchema.safeParse(options);
  if (parsed.success) return;
  const [issue] = parsed.error.issues;
  const [message, hint] = (issue?.message ?? 'a delivery option is invalid').split(': ');
  throw usageError(`${message} (got ${String((options as Record<string, unknown>)[String(issue?.path[0])])})`, hint);
}
