const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** The units, for hints: every place that parses a duration takes all of them. */
export const DURATION_EXAMPLES = '90s, 15m, 6h, 2d, 1w';

/** The largest `time_to_live`: the interface document types it `int`, whose largest value this is. */
export const MAX_TTL_SECONDS = 2_147_483_647;

/** The longest delay a Node.js timer holds (2^31-1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Parses `3600` (seconds), `500ms`, `90s`, `15m`, `6h`, `2d`, `1w` into milliseconds.
 * Returns undefined for anything else so the caller can name the flag in its error.
 */
export function parseDurationMs(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 's').toLowerCase()]!;
  return Number.isFinite(ms) ? ms : undefined;
}

/** A duration in whole seconds (for `time_to_live`); undefined when it is not a whole positive number of seconds. */
export function parseDurationSeconds(text: string): number | undefined {
  const ms = parseDurationMs(text);
  if (ms === undefined || ms % 1000 !== 0 || ms <= 0) return undefined;
  return ms / 1000;
}
