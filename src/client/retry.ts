import type { AttemptOutcome } from './outcome.js';

/** Knobs of the retry policy; the defaults are those of docs/behaviour.md#retries. */
export interface RetryPolicyOptions {
  /** Attempts per batch, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Retry outcomes that may already have been delivered (`--retry-in-doubt`): duplicates become possible. */
  retryInDoubt?: boolean;
  /**
   * The longest `Retry-After` we wait for. A service asking for longer is not retried at all: retrying
   * earlier than asked would most likely be refused again, and a CLI should not sit silent for an hour.
   */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY_POLICY: Required<RetryPolicyOptions> = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  retryInDoubt: false,
  maxRetryAfterMs: 60_000,
};

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; why: string };

/**
 * Full-jitter exponential backoff: a uniform draw in [0, min(cap, base * 2^(attempt-1))), where `attempt`
 * is the number of the attempt that just failed (1 for the first). Full jitter spreads concurrent batches
 * apart instead of having them retry in lockstep.
 */
export function backoffDelay(attempt: number, random: number, options: RetryPolicyOptions = {}): number {
  const { baseDelayMs, maxDelayMs } = { ...DEFAULT_RETRY_POLICY, ...options };
  const exponent = Math.min(Math.max(attempt, 1) - 1, 52);
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** exponent);
  const draw = Math.min(Math.max(random, 0), 1);
  return Math.floor(draw * ceiling);
}

/** Whether to retry after `outcome`, the result of attempt number `attempt` (1-based), and after how long. */
export function decideRetry(
  outcome: AttemptOutcome,
  attempt: number,
  random: number,
  options: RetryPolicyOptions = {},
): RetryDecision {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options };
  switch (outcome.kind) {
    case 'accepted':
      return { retry: false, why: 'accepted' };
    case 'rejected':
      return { retry: false, why: 'rejected by the service' };
    case 'in_doubt':
      if (!policy.retryInDoubt) return { retry: false, why: 'may have been delivered; not retried without --retry-in-doubt' };
      // The same URL would redirect again; retrying a redirect cannot help.
      if (outcome.redirectTo !== undefined) return { retry: false, why: 'redirects are refused' };
      break;
    case 'retryable':
      if (outcome.permanent) return { retry: false, why: 'retrying cannot help' };
      break;
  }
  if (attempt >= policy.maxAttempts) return { retry: false, why: `gave up after ${attempt} attempts` };
  const jitter = backoffDelay(attempt, random, policy);
  const retryAfterMs = outcome.kind === 'retryable' ? outcome.retryAfterMs : undefined;
  if (retryAfterMs === undefined) return { retry: true, delayMs: jitter };
  if (retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, why: `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s` };
  }
  return { retry: true, delayMs: Math.max(retryAfterMs, jitter) };
}
