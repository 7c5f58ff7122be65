// The big sends of docs/behaviour.md#performance's scale figures: `pushctl send` of n client IDs with no rate limit to an
// emulator in the bench process (rate 0), human output and journal on, as a user runs it. One set of runs
// per size and Node.js gives the wall time, when the first request left, and the peak RSS, each read by
// its own figure (h.once).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { max, median } from './stats.mjs';

const TIME_BIN = '/usr/bin/time';

export function bigSend(h, n, repeat, timeoutMs = 120_000) {
  return h.once(`big-send-${n}`, async () => {
    const file = await h.ids(n);
    const expected = Math.ceil(n / 1000);
    const runs = [];
    for (let i = 0; i < repeat; i++) {
      const emu = await h.emulator({ rate: 0, maxClientIds: 1000 });
      const relay = await h.relay(emu.url);
      const args = ['send', '--base-url', relay.url, '--app-id', 'demo-app', '--client-ids-file', file, '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
      const r = await runMeasuringRss(h, args, timeoutMs);
      if (r.code !== 0) throw new Error(`send of ${n} IDs exited ${r.code ?? r.signal}: ${r.stderr.slice(-600)}`);
      const accepted = emu.stats().accepted;
      if (accepted !== expected) throw new Error(`send of ${n} IDs: the emulator accepted ${accepted} batches, expected ${expected}`);
      runs.push({ wallMs: r.ms, firstRequestMs: relay.seen.firstRequestAt - r.startedAt, peakRssKiB: r.peakRssKiB });
      await relay.close();
      await emu.close();
    }
    const list = (pick, format) => (runs.length > 1 ? ` (runs: ${runs.map((run) => format(pick(run))).join(', ')})` : '');
    return {
      runs,
      wallMs: median(runs.map((run) => run.wallMs)),
      firstRequestMs: median(runs.map((run) => run.firstRequestMs)),
      peakRssMiB: runs.some((run) => run.peakRssKiB === undefined) ? undefined : max(runs.map((run) => run.peakRssKiB)) / 1024,
      list,
    };
  });
}

/**
 * `pushctl <args>` with its peak RSS: GNU time prints the child's maximum resident set size (KiB); without
 * it, a preloaded CommonJS file prints process.resourceUsage().maxRSS (also KiB) as the process exits.
 * `peakRssKiB` is undefined when neither said.
 */
export async function runMeasuringRss(h, args, timeoutMs, runOptions = {}) {
  const r = existsSync(TIME_BIN)
    ? await h.run(TIME_BIN, ['-f', 'PUSHCTL_BENCH_MAXRSS=%M', h.node, h.BIN, ...args], { ...runOptions, timeoutMs })
    : await h.run(h.node, ['--require', maxRssHook(h), h.BIN, ...args], { ...runOptions, timeoutMs });
  const rss = /PUSHCTL_BENCH_MAXRSS=(\d+)/.exec(r.stderr);
  return { ...r, peakRssKiB: rss ? Number(rss[1]) : undefined };
}

function maxRssHook(h) {
  const hook = join(h.tmp, 'maxrss.cjs');
  writeFileSync(hook, "process.on('exit', () => process.stderr.write(`PUSHCTL_BENCH_MAXRSS=${process.resourceUsage().maxRSS}\\n`));\n");
  return hook;
}
