// The options of `pushctl resend <run>`, checked by one schema: the settings and delivery flags (bounded
// there), and resend's own.
import * as z from 'zod/mini';
import { deliveryOptionsSchema } from '../shared/delivery-options.js';
import { settingsOptionsSchema } from '../shared/settings-options.js';

export const resendOptionsSchema = z.object({
  ...settingsOptionsSchema.shape,
  ...deliveryOptionsSchema.shape,
  /** A run id (from `pushctl runs`) or the path of a journal file. */
  run: z.string(),
  /** The run's own client-ID file again, for a run stopped before it read all of it. */
  clientIdsFile: z.optional(z.string()),
  /** Show what would be sent, send nothing. */
  dryRun: z.optional(z.boolean()),
});

export type ResendOptions = z.infer<typeof resendOptionsSchema>;
