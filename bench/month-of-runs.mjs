// A journal directory that a month of runs has filled, for the figures that measure what it costs a command.
// An hourly CI job with `--once` keeps every run 30 days (a key must be found by a re-run), and every run
// leaves a lock that stays a day: 720 journals and 24 locks a month, many more for a job every few minutes.
// Here JOURNALS journals of sends with a key, spread over 29 days, and LOCKS locks released within the day.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const JOURNALS = 1000;
export const LOCKS = 1500;
const DAY_MS = 86_400_000;

/** `20261122-231502`: a run id's start second, as pushctl writes it, for a time `ms`. */
const startSecond = (ms) => new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/**
 * A runs directory holding JOURNALS copies of one real journal (each its own id and key, the oldest 29 days
 * old) and LOCKS released locks; `send` (argv of a send) makes the journal copied, the newest run (`newest`).
 */
export async function monthOfRuns(h, send) {
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
  return { runs, newest: id };
}
