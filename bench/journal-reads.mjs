// Issue 32 row 6: what reading the journal of a killed 10,000,000-recipient run costs. Per Node.js, in a runs
// directory of its own holding that journal (see killed-journal.mjs; its family lock absent, so `killed`):
// `runs --json`, `runs show <id> --json`, `resend <id> --dry-run --json` and `resend <id>` to an emulator in
// this process with no rate limit, each with its peak RSS and wall time (spawn to exit), each checked for
// what it must say. The preview runs before the resend, so it shows what the resend then sends.
import { linkSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { runMeasuringRss } from './big-send.mjs';
import { BATCHES, RECIPIENTS, SHAPE, runIdNow, writeKilledJournal } from './killed-journal.mjs';

const CHILD_TIMEOUT_MS = 180_000;
/** One journal per bench run, whichever Node.js reads it: it is 670 MB. */
const masters = new Map();

function masterJournal(tmp) {
  if (!masters.has(tmp)) {
    masters.set(tmp, (async () => {
      const runId = runIdNow();
      const dir = join(tmp, 'killed-journal');
      mkdirSync(dir, { mode: 0o700 });
      const path = join(dir, `${runId}.jsonl`);
      return { runId, path, bytes: await writeKilledJournal(path, runId) };
    })());
  }
  return masters.get(tmp);
}

/** The four reads of the killed journal on this harness's Node.js (h.once: every journal figure reads them). */
export function journalReads(h) {
  return h.once('journal-reads', async () => {
    const master = await masterJournal(h.tmp);
    // A runs directory per Node.js: the resend adds its own journal, which a second reading would see.
    const runs = join(mkdtempSync(join(h.tmp, 'journal-runs-')), 'runs');
    mkdirSync(runs, { mode: 0o700 });
    linkSync(master.path, join(runs, `${master.runId}.jsonl`));
    const env = { ...h.env, PUSHCTL_JOURNAL_DIR: runs };
    // Each read stands alone: one that fails is its own figure's error, and the others are still measured.
    const pushctl = async (what, args, check) => {
      const r = await runMeasuringRss(h, args, CHILD_TIMEOUT_MS, { env });
      try {
        if (r.code !== 0) throw new Error(`${what} exited ${r.code ?? r.signal}: ${said(r.stderr)}`);
        check(r);
      } catch (error) {
        return { error: error instanceof SyntaxError ? new Error(`${what}: its output is not JSON (${error.message})`) : error };
      }
      return { wallMs: r.ms, peakRssMiB: r.peakRssKiB === undefined ? undefined : r.peakRssKiB / 1024 };
    };
    const { runId } = master;
    const listed = await pushctl('pushctl runs --json', ['runs', '--json'], (r) => checkList(JSON.parse(r.stdout), runId));
    const human = await pushctl('pushctl runs', ['runs'], (r) => checkHumanList(r, runId));
    const list = listed.error || !human.error ? listed : human;
    const show = await pushctl('pushctl runs show', ['runs', 'show', runId, '--json'], (r) => checkShow(JSON.parse(r.stdout).run, runId));
    const emu = await h.emulator({ rate: 0, maxClientIds: 1000 });
    const destination = ['--base-url', emu.url, '--app-id', 'demo-app'];
    const preview = await pushctl('pushctl resend --dry-run', ['resend', runId, '--dry-run', '--json', ...destination], (r) => checkPreview(JSON.parse(r.stdout), emu));
    const resend = await pushctl('pushctl resend', ['resend', runId, ...destination], () => checkResent(emu));
    await emu.close();
    return { bytes: master.bytes, list, show, preview, resend };
  });
}

/** What a failed command said: its last lines, without what /usr/bin/time adds. */
const said = (stderr) =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('Command exited') && !line.startsWith('PUSHCTL_BENCH_MAXRSS='))
    .slice(-2)
    .join(' / ')
    .slice(-600);

const LEFT = SHAPE.notSent * SHAPE.batchSize;
const IN_DOUBT = SHAPE.inDoubt * SHAPE.batchSize;

function expect(condition, what) {
  if (!condition) throw new Error(what);
}

function checkCounts(view, what) {
  const { batches, recipients } = view;
  expect(batches?.total === BATCHES && recipients?.total === RECIPIENTS, `${what}: ${JSON.stringify(batches)} batches, ${JSON.stringify(recipients)} recipients; expected ${BATCHES} and ${RECIPIENTS}`);
  expect(batches.accepted === SHAPE.accepted && batches.in_doubt === SHAPE.inDoubt && batches.not_sent === SHAPE.notSent, `${what}: counts ${JSON.stringify(batches)}, expected ${JSON.stringify(SHAPE)}`);
}

function checkList(document, runId) {
  const run = document.runs?.find((r) => r.run_id === runId);
  expect(run, `pushctl runs --json does not list run ${runId} (${document.runs?.length ?? 0} runs listed)`);
  expect(run.state === 'killed', `pushctl runs --json: run ${runId} is ${run.state}, expected killed`);
  checkCounts(run, 'pushctl runs --json');
}

function checkHumanList(r, runId) {
  expect(!/no runs yet/.test(r.stderr), `pushctl runs says "no runs yet" beside a journal of ${RECIPIENTS} recipients`);
  const row = r.stdout.split('\n').find((line) => line.includes(runId));
  expect(row && /killed/.test(row), `pushctl runs: no row for run ${runId} in state killed:\n${r.stdout.slice(0, 600)}`);
}

function checkShow(run, runId) {
  expect(run?.run_id === runId && run.state === 'killed', `pushctl runs show: run ${run?.run_id} is ${run?.state}, expected ${runId} killed`);
  checkCounts(run, 'pushctl runs show');
  expect(run.message_ids?.length === SHAPE.accepted, `pushctl runs show: ${run.message_ids?.length} message ids, expected ${SHAPE.accepted}`);
  expect(run.in_doubt === IN_DOUBT && typeof run.resend_command === 'string', `pushctl runs show: in_doubt ${run.in_doubt}, resend command ${run.resend_command}; expected ${IN_DOUBT} and a command`);
}

function checkPreview(preview, emu) {
  expect(preview.dry_run === true && preview.recipients === LEFT && preview.client_ids?.length === LEFT, `pushctl resend --dry-run: would send ${preview.recipients} (${preview.client_ids?.length} IDs listed), expected ${LEFT}`);
  expect(preview.in_doubt === IN_DOUBT, `pushctl resend --dry-run: ${preview.in_doubt} in doubt, expected ${IN_DOUBT}`);
  expect(emu.stats().accepted === 0, `pushctl resend --dry-run sent ${emu.stats().accepted} batches`);
}

function checkResent(emu) {
  const accepted = emu.stats().accepted;
  expect(accepted === SHAPE.notSent, `pushctl resend: the emulator accepted ${accepted} batches, expected ${SHAPE.notSent} (${LEFT} recipients)`);
}

/** A figure's result for one read: its peak RSS beside the 300 MB target, and its wall time. */
export function readFigure(read, note = '') {
  if (read.error) throw read.error;
  if (read.peakRssMiB === undefined) return { measured: `not measured (wall ${(read.wallMs / 1000).toFixed(1)} s)`, pass: undefined };
  return { measured: `${read.peakRssMiB.toFixed(0)} MB, wall ${(read.wallMs / 1000).toFixed(1)} s${note}`, pass: read.peakRssMiB < 300, value: read.peakRssMiB };
}

export const SIZE = { recipients: RECIPIENTS, left: LEFT, inDoubt: IN_DOUBT };
