// docs/behaviour.md#performance: what a journal directory that a month of runs has filled costs one `pushctl send`.
// An hourly CI job with `--once` keeps every run 30 days (a key must be found by a re-run), and every run
// leaves a lock that stays a day: 720 journals and 24 locks a month, many more for a job every few minutes.
// Here 1,000 journals of sends with a key, spread over 29 days, and 1,500 locks released within the day: the
// same one-message send as the start-up figure, in that directory against a directory of its own.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startupSamples } from '../startup-ratio.mjs';

export const name = 'start-up: send 1 message beside a month of runs';
export const target = '≤ 1.2x the same send in an empty journal directory';

const JOURNALS = 1000;
const LOCKS = 1500;
const DAY_MS = 86_400_000;

/** `20261122-231502`: a run id's start second, as pushctl writes it, for a time `ms`. */
const startSecond = (ms) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** A runs directory holding JOURNALS copies of one real journal (each its own id and key) and LOCKS released locks. */
async function monthOfRuns(h, send) {
  const runs = join(mkdtempSync(join(h.tmp, 'month-of-runs-')), 'runs');
  const made = await h.run(h.node, [...send, '--once', 'template'], { env: { ...h.env, PUSHCTL_JOURNAL_DIR: runs } });
  if (made.code !== 0) throw new Error(`the template send exited ${made.code}: ${made.stderr.slice(0, 300)}`);
  const [file] = readdirSync(runs).filter((f) => f.endsWith('.jsonl'));
  const template = readFileSync(join(runs, file), 'utf8');
  const id = file.slice(0, -'.jsonl'.length);
  const now = Date.now();
  for (let i = 0; i < JOURNALS; i++) {
    const at = now - DAY_MS - Math.floor((i * 28 * DAY_MS) / JOURNALS);
    const copy = `${startSecond(at)}-${i.toString(16).padStart(4, '0')}`;
    const path = join(runs, `${copy}.jsonl`);
    writeFileSync(path, template.split(id).join(copy).replace('"once":"template"', `"once":"release-${i}"`), { mode: 0o600 });
    utimesSync(path, at / 1000, at / 1000);
  }
  const locks = join(runs, '.locks');
  mkdirSync(locks, { recursive: true, mode: 0o700 });
  for (let i = 0; i < LOCKS; i++) {
    const at = now - Math.floor((i * DAY_MS) / LOCKS);
    const path = join(locks, `run-${startSecond(at)}-${i.toString(16).padStart(4, '0')}.1`);
    writeFileSync(path, JSON.stringify({ run_id: 'x', pid: 1, released: true }), { mode: 0o600 });
    utimesSync(path, at / 1000, at / 1000);
  }
  return runs;
}

export async function measure(h) {
  const emu = await h.emulator({ rate: 0 });
  const send = [h.BIN, 'send', '--base-url', emu.url, '--app-id', 'demo-app', '--client-id', 'bench-client-1', '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
  const full = await monthOfRuns(h, send);
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
