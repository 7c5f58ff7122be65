// docs/behaviour.md#performance: peak RSS of the pushctl process under 400 MB at 5,000,000 client IDs (human output,
// journal on). One run: it is the longest figure.
import { bigSend } from '../big-send.mjs';

export const name = '5M IDs: peak RSS of pushctl';
export const target = '< 400 MB';
export const timeoutMs = 240_000;

export async function measure(h) {
  const big = await bigSend(h, 5_000_000, 1, 200_000);
  if (big.peakRssMiB === undefined) return { measured: 'not measured', pass: undefined };
  return { measured: `${big.peakRssMiB.toFixed(0)} MB (wall ${(big.wallMs / 1000).toFixed(1)} s)`, pass: big.peakRssMiB < 400, value: big.peakRssMiB };
}
