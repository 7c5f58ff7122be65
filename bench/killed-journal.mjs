// The journal of a killed 10,000,000-recipient run, as `pushctl send` leaves it after `kill -9` (issue 32
// row 6): a header naming a family lock that no longer exists (so the run reads `killed`), the whole plan
// (10,000 batch records of 1000 IDs), then start and outcome records of a send with a few requests in
// flight, cut off mid-run with no end record. Written once per bench run, streamed to disk a batch at a
// time: the bench process never holds more than one batch of it.
import { createWriteStream, readFileSync } from 'node:fs';

export const RECIPIENTS = 10_000_000;
const BATCH = 1000;
export const BATCHES = RECIPIENTS / BATCH;
/** Requests in flight: a batch's outcome is written this many starts after its own start. */
const IN_FLIGHT = 8;
/** The first batch never started: the kill came while batches FIRST_UNSTARTED - IN_FLIGHT … - 1 were in flight. */
const FIRST_UNSTARTED = BATCHES - 32;
/** 64-character IDs: the size of the journal (9,000,000 recipients, ~600 MB). */
const ID_DIGITS = 63;

/** Batches whose three attempts were all answered 22001 (not processed): not sent, amid accepted ones. */
const gaveUp = (b) => b % 1000 === 500 && b < FIRST_UNSTARTED - IN_FLIGHT;
/** Batches accepted on a second attempt after one 22001: outcomes the reader must settle by the last attempt. */
const retried = (b) => b % 250 === 125 && !gaveUp(b);

/** What a resend of the run sends by default, what stays in doubt, and what the run delivered, in batches. */
export const SHAPE = (() => {
  let notSent = BATCHES - FIRST_UNSTARTED;
  for (let b = 0; b < FIRST_UNSTARTED; b++) if (gaveUp(b)) notSent += 1;
  const inDoubt = IN_FLIGHT;
  return { notSent, inDoubt, accepted: BATCHES - notSent - inDoubt, batchSize: BATCH };
})();

/** A run id as pushctl makes them (`20261124-161813-5d4c`), for now. */
export function runIdNow(now = new Date()) {
  return `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-b0b0`;
}

/** Writes the journal of run `runId` to `path`; resolves with its size in bytes. */
export async function writeKilledJournal(path, runId) {
  const out = createWriteStream(path, { mode: 0o600 });
  let bytes = 0;
  const write = async (text) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  };
  await write(`${JSON.stringify(header(runId))}\n`);
  for (let b = 0; b < BATCHES; b++) await write(batchLine(b));
  let lines = '';
  for (let b = 0; b < FIRST_UNSTARTED; b++) {
    lines += `{"t":"start","b":${b},"a":1}\n`;
    if (b >= IN_FLIGHT) lines += outcomeLines(b - IN_FLIGHT);
    if (lines.length > 1 << 20) {
      await write(lines);
      lines = '';
    }
  }
  await write(lines);
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return bytes;
}

function header(runId) {
  const argv = ['send', '--base-url', 'http://127.0.0.1:9', '--app-id', 'demo-app', '--client-ids-file', 'ids-10m.txt', '--title', 'Hi', '--desc', 'bench', '--rate', '0'];
  return {
    t: 'header',
    format: 'pushctl-journal',
    v: 1,
    run_id: runId,
    started_at: new Date().toISOString(),
    version: '0.2.0',
    // No process has this pid (pids stay below pid_max): a reader that asks the pid also finds it gone.
    pid: pidMax(),
    app_id: 'demo-app',
    host: '127.0.0.1:9',
    base_url: 'http://127.0.0.1:9',
    dry_run: false,
    argv,
    message: { type: 1, time_to_live: 86400, condition: { type: 2 }, notification: { title: 'Hi', desc: 'bench' } },
    recipients: RECIPIENTS,
    batches: BATCHES,
    lock: `run-${runId}`,
  };
}

function batchLine(b) {
  let ids = '';
  for (let i = b * BATCH; i < (b + 1) * BATCH; i++) ids += `${ids === '' ? '' : ','}"c${i.toString(16).padStart(ID_DIGITS, '0')}"`;
  return `{"t":"batch","b":${b},"ids":[${ids}]}\n`;
}

/** The outcome records of batch `b` (and the starts of its later attempts). */
function outcomeLines(b) {
  const busy = (a) => `{"t":"outcome","b":${b},"a":${a},"kind":"retryable","code":22001,"message":"called too frequently","reason":"rate limited (22001)"}\n`;
  const accepted = (a) => `{"t":"outcome","b":${b},"a":${a},"kind":"accepted","message_id":"emu-${b.toString(16).padStart(8, '0')}-0000-4000-8000-${a.toString(16).padStart(12, '0')}"}\n`;
  if (gaveUp(b)) return `${busy(1)}{"t":"start","b":${b},"a":2}\n${busy(2)}{"t":"start","b":${b},"a":3}\n${busy(3)}`;
  if (retried(b)) return `${busy(1)}{"t":"start","b":${b},"a":2}\n${accepted(2)}`;
  return accepted(1);
}

function pidMax() {
  try {
    return Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
  } catch {
    return 4_194_304;
  }
}
