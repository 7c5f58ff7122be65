// docs/behaviour.md#performance: what a journal directory that a month of runs has filled costs one `pushctl send`.
// The same one-message send as the start-up figure, in that directory (bench/month-of-runs.mjs) against a
// directory of its own.
import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNALS, LOCKS, monthOfRuns } from '../month-of-runs.mjs';
import { startupSamples } from '../startup-ratio.mjs';

export const name = 'start-up: send 1 message beside a month of runs';
export const target = '≤ 1.2x the same send in an empty journal directory';

export async function measure(h) {
  const emu = await h.emulator({ rate: 0 });
  const send = [h.BIN, 'send', '--base-url', emu.url, '--app-id', 'demo-app', '--client-id', 'bench-client-1', '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
  const { runs: full } = await monthOfRuns(h, send);
  const empty = join(mkdtempSync(join(h.tmp, 'no-runs-')), 'runs');
  const s = await startupSamples(h, [
    { argv: send, env: { ...h.env, PUSHCTL_JOURNAL_DIR: empty } },
    { argv: send, env: { ...h.env, PUSHCTL_JOURNAL_DIR: full } },
  ]);
  const kept = readdirSync(full).filter((f) => f.endsWith('.jsonl')).length;
  // Each holds a key, so retention must keep them all (and the template and the sends measured).
  if (kept < JOURNALS + 1) throw new Error(`retention removed runs that hold keys: ${kept} journals left of ${JOURNALS + 1}`);
  const ratio = s.ratio(1, 0);
  return {
    measured: `${ratio.toFixed(2)}x: ${s.describe(1)} beside ${JOURNALS} journals and ${LOCKS} locks vs ${s.describe(0)} alone`,
    pass: ratio <= 1.2,
    value: ratio,
  };
}
