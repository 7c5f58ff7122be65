// The options of `pushctl dry-run`: a dry run is a send with "dry_run": true, so it takes send's options,
// checked by send's one schema (the same object, not a copy).
import { sendOptionsSchema } from '../send/options.js';
import type { SendOptions } from '../send/options.js';

export const dryRunOptionsSchema = sendOptionsSchema;

export type DryRunOptions = SendOptions;
