// docs/behaviour.md#performance: `pushctl send` of one message to the emulator, journal on, within 1.5x of
// bench/one-request.cjs, a bare Node.js script making the same request (what any Node.js CLI pays to send
// one request: node:http, the stdio streams, one cold connection).
import { join } from 'node:path';
import { startupSamples } from '../startup-ratio.mjs';

export const name = 'start-up: send 1 message (journal on)';
export const target = '≤ 1.5x bench/one-request.cjs';

export async function measure(h) {
  const emu = await h.emulator({ rate: 0 });
  const before = emu.stats().accepted;
  const send = [h.BIN, 'send', '--base-url', emu.url, '--app-id', 'demo-app', '--client-id', 'bench-client-1', '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
  const floor = [join(h.ROOT, 'bench', 'one-request.cjs'), emu.url, 'demo-app', 'demo-secret'];
  const s = await startupSamples(h, [{ argv: ['-e', '0'] }, { argv: floor }, { argv: send }]);
  const sent = emu.stats().accepted - before;
  const expected = 2 * s.times[0].length + 2 * h.options.warmups;
  if (sent !== expected) throw new Error(`the emulator accepted ${sent} messages, expected ${expected}`);
  const ratio = s.ratio(2, 1);
  return {
    measured: `${ratio.toFixed(2)}x: ${s.describe(2)} vs one-request ${s.describe(1)} (node -e 0 ${s.describe(0)}, send ${s.ratio(2, 0).toFixed(2)}x of it)`,
    pass: ratio <= 1.5,
    value: ratio,
  };
}
