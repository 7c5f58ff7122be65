// docs/behaviour.md#performance: 1,000,000 client IDs unthrottled in under 5 s whole (spawn to exit).
import { bigSend } from '../big-send.mjs';

export const name = '1M IDs unthrottled: wall time';
export const target = '< 5 s';

export async function measure(h) {
  const big = await bigSend(h, 1_000_000, h.options.repeat);
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  return { measured: `${s(big.wallMs)}${big.list((run) => run.wallMs, s)}`, pass: big.wallMs < 5000, value: big.wallMs };
}
