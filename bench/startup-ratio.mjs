// Start-up as docs/behaviour.md#performance measures it: commands started round-robin (the first command each round
// rotates, so none always follows the same one), and a ratio as the median of per-round ratios against a
// baseline of the same round, which cancels the drift of a shared machine better than a ratio of medians.
// On Node.js 22+ the warm-up runs fill Node's compile cache, as a user's earlier runs would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { max, median, min } from './stats.mjs';

/** `commands`: [{ argv, env? }] run on h.node; returns each one's samples (ms) and `ratio(i, base)`. */
export async function startupSamples(h, commands) {
  const { runs, warmups } = h.options;
  const times = commands.map(() => []);
  for (let round = 0; round < warmups + runs; round++) {
    for (let k = 0; k < commands.length; k++) {
      const i = (round + k) % commands.length;
      const r = await h.run(h.node, commands[i].argv, commands[i].env ? { env: commands[i].env } : undefined);
      if (r.code !== 0) throw new Error(`${commands[i].argv.join(' ')} exited ${r.code ?? r.signal}: ${r.stderr.slice(0, 500)}`);
      if (round >= warmups) times[i].push(r.ms);
    }
  }
  return {
    times,
    ratio: (i, base) => median(times[i].map((t, round) => t / times[base][round])),
    describe: (i) => `${median(times[i]).toFixed(1)} ms (${min(times[i]).toFixed(1)}–${max(times[i]).toFixed(1)})`,
  };
}

/** A figure: `args` of pushctl against `node -e 0`, within `target` times. */
export function startupFigure(args, target) {
  return async (h) => {
    const s = await startupSamples(h, [{ argv: ['-e', '0'] }, { argv: [h.BIN, ...args(h)] }]);
    const ratio = s.ratio(1, 0);
    return { measured: `${ratio.toFixed(2)}x: ${s.describe(1)} vs node -e 0 ${s.describe(0)}`, pass: ratio <= target, value: ratio };
  };
}

/** The small message file of the validate figure. */
export function smallMessage(h) {
  const file = join(h.tmp, 'small.json');
  writeFileSync(file, JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'A small message', open_type: 1 } }));
  return file;
}
