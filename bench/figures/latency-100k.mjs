// docs/behaviour.md#performance: 100,000 client IDs against `serve --rate 50 --chaos latency=300-400ms`, no tuning flags:
// the send phase within 2.3 s (ideal 2.0 s: 100 requests at 50/s) with zero 22001 answers.
import { LATENCY_IDS, latencySend } from '../latency-send.mjs';

export const name = '100k IDs @ 50/s, 300–400 ms latency';
export const target = 'send phase ≤ 2.3 s, 0 × 22001';

export async function measure(h) {
  const r = await latencySend(h, 'latency=300-400ms');
  const pass = r.sendPhaseMs <= 2300 && r.rateLimited === 0 && r.exitCode === 0 && r.accepted === LATENCY_IDS;
  return {
    measured: `${(r.sendPhaseMs / 1000).toFixed(2)} s send phase, ${r.rateLimited} × 22001, exit ${r.exitCode}, ${r.accepted ?? '?'} accepted (wall ${(r.wallMs / 1000).toFixed(2)} s)`,
    pass,
    value: r.sendPhaseMs,
  };
}
