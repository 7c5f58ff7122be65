// Issue 20: the latency figure again with 5% of requests answered 22001 by chaos: a rate limit that finds
// the real limit instead of collapsing. No target in docs/behaviour.md#performance; shown beside the clean case.
import { LATENCY_IDS, latencySend } from '../latency-send.mjs';

export const name = '100k IDs @ 50/s, 300–400 ms, 5% 22001';
export const target = null;

export async function measure(h) {
  const r = await latencySend(h, 'latency=300-400ms,22001=5%');
  return {
    measured: `${(r.sendPhaseMs / 1000).toFixed(2)} s send phase, ${r.chaos22001} × 22001 by chaos + ${r.rateLimited} by the limit, exit ${r.exitCode}, ${r.accepted ?? '?'}/${LATENCY_IDS} accepted`,
    value: r.sendPhaseMs,
  };
}
