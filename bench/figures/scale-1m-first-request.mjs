// docs/behaviour.md#performance: at 1,000,000 client IDs the first request leaves within 0.3 s of start (spawn to its
// first byte through the relay).
import { bigSend } from '../big-send.mjs';

export const name = '1M IDs: first request leaves';
export const target = '≤ 0.3 s after start';

export async function measure(h) {
  const big = await bigSend(h, 1_000_000, h.options.repeat);
  const s = (ms) => `${(ms / 1000).toFixed(3)} s`;
  return { measured: `${s(big.firstRequestMs)}${big.list((run) => run.firstRequestMs, s)}`, pass: big.firstRequestMs <= 300, value: big.firstRequestMs };
}
