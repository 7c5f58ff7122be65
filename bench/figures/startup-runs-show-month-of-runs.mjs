// docs/behaviour.md#performance: what a journal directory that a month of runs has filled costs `pushctl runs
// show <run>` of its newest run, against the same journal alone in a directory. For information: a run is read
// with its family (the runs a resend of it made, which name it in their first line), so every journal's first
// line is read, as `--once` reads every key.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNALS, LOCKS, monthOfRuns } from '../month-of-runs.mjs';
import { startupSamples } from '../startup-ratio.mjs';

export const name = 'start-up: runs show beside a month of runs';
export const target = null;

export async function measure(h) {
  const emu = await h.emulator({ rate: 0 });
  const send = [h.BIN, 'send', '--base-url', emu.url, '--app-id', 'demo-app', '--client-id', 'bench-client-1', '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
  const { runs: full, newest } = await monthOfRuns(h, send);
  const alone = join(mkdtempSync(join(h.tmp, 'one-run-')), 'runs');
  mkdirSync(alone, { mode: 0o700 });
  copyFileSync(join(full, `${newest}.jsonl`), join(alone, `${newest}.jsonl`));
  const show = [h.BIN, 'runs', 'show', newest];
  const s = await startupSamples(h, [
    { argv: show, env: { ...h.env, PUSHCTL_JOURNAL_DIR: alone } },
    { argv: show, env: { ...h.env, PUSHCTL_JOURNAL_DIR: full } },
  ]);
  const ratio = s.ratio(1, 0);
  return { measured: `${ratio.toFixed(2)}x: ${s.describe(1)} beside ${JOURNALS} journals and ${LOCKS} locks vs ${s.describe(0)} alone`, pass: true, value: ratio };
}
