import type { BatchResult } from '../../src/client/batch-result.js';

/** The IDs the results leave to send again: those in doubt, then those not sent, each in input order. */
export const leftIds = (results: readonly BatchResult[]): string[] =>
  (['in_doubt', 'not_sent'] as const).flatMap((status) => results.filter((r) => r.status === status).flatMap((r) => r.clientIds));
