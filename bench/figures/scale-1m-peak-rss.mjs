// docs/behaviour.md#performance: peak RSS of the pushctl process under 160 MB at 1,000,000 client IDs (human output,
// journal on); the worst of the runs.
import { bigSend } from '../big-send.mjs';

export const name = '1M IDs: peak RSS of pushctl';
export const target = '< 160 MB';

export async function measure(h) {
  const big = await bigSend(h, 1_000_000, h.options.repeat);
  if (big.peakRssMiB === undefined) return { measured: 'not measured', pass: undefined };
  const mb = (kib) => `${(kib / 1024).toFixed(0)} MB`;
  return { measured: `${big.peakRssMiB.toFixed(0)} MB${big.list((run) => run.peakRssKiB, mb)}`, pass: big.peakRssMiB < 160, value: big.peakRssMiB };
}
