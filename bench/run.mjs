#!/usr/bin/env node
// `npm run bench`: the figures of SPEC section 7, each printed beside its target with PASS or MISS.
// A measurement, not a test: it exits 0 whatever the figures are (1 only when it could not measure).
//
//   node bench/run.mjs                      # everything (needs a fresh `npm run build`)
//   node bench/run.mjs --only startup       # or throughput, memory, emulator (comma lists: startup,memory)
//   node bench/run.mjs --json               # one JSON document on stdout, progress on stderr
//   node bench/run.mjs --runs 51            # timed runs per start-up command (default 31, after 2 warm-ups)
//   node bench/run.mjs --repeat 1           # runs of each big send (default 3: medians, and the worst RSS)
//
// Every server listens on 127.0.0.1 only; every child has a time limit; the whole run has a deadline;
// temporary files live in one directory under os.tmpdir() that is removed at the end.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchStartup } from './startup.mjs';
import { max, maxInSlidingWindow, median, min, round1, round2 } from './stats.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'pushctl.cjs');
const DIST = join(ROOT, 'dist');
const DEADLINE_MS = 240_000;
const CHILD_TIMEOUT_MS = 60_000;
const SECTIONS = ['startup', 'throughput', 'memory', 'emulator'];
const TIME_BIN = '/usr/bin/time';
const ID_SHAPE = '32 characters each, "c" and 31 hex digits, all distinct';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
    runs: { type: 'string', default: '31' },
    repeat: { type: 'string', default: '3' },
    warmups: { type: 'string', default: '2' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (args.help) {
  process.stdout.write('usage: node bench/run.mjs [--only startup|throughput|memory|emulator[,...]] [--json] [--runs N] [--warmups N] [--repeat N]\n');
  process.exit(0);
}
const only = args.only ? args.only.split(',').map((s) => s.trim()).filter(Boolean) : SECTIONS;
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    process.stderr.write(`bench: --only takes ${SECTIONS.join('|')}, got "${s}"\n`);
    process.exit(2);
  }
}
const RUNS = positiveInt(args.runs, 'runs');
const REPEAT = positiveInt(args.repeat, 'repeat');
const WARMUPS = Math.max(0, Number.parseInt(args.warmups, 10) || 0);

/** Progress goes to stderr so that `--json` keeps stdout to one document. */
const say = (line) => process.stderr.write(`${line}\n`);
const out = (line) => (args.json ? say(line) : process.stdout.write(`${line}\n`));

if (!existsSync(join(DIST, 'main.cjs')) || !existsSync(join(DIST, 'lib.js'))) {
  say('bench: dist/ is missing; run `npm run build` first (npm run bench does)');
  process.exit(1);
}

const TMP = mkdtempSync(join(tmpdir(), 'pushctl-bench-'));
const children = new Set();
const emulators = new Set();
let cleanedUp = false;
function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) child.kill('SIGKILL');
  rmSync(TMP, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}
const deadline = setTimeout(() => {
  say(`bench: still running after ${DEADLINE_MS / 1000} s; giving up`);
  cleanup();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

/** Children run in the temp directory with a private config home, so no user or project config leaks in. */
const CHILD_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('PUSHCTL_') && k !== 'NODE_OPTIONS' && !k.startsWith('npm_')),
);
// Every send writes its run journal, as a user's does (SPEC section 7 measures with the journal on).
const JOURNALS = join(TMP, 'runs');
Object.assign(CHILD_ENV, { PUSHCTL_APP_SECRET: 'demo-secret', XDG_CONFIG_HOME: join(TMP, 'config'), PUSHCTL_JOURNAL_DIR: JOURNALS, NO_COLOR: '1' });

/** The size of the newest run journal, in MiB. */
function newestJournalMiB() {
  const files = existsSync(JOURNALS) ? readdirSync(JOURNALS).map((f) => join(JOURNALS, f)) : [];
  const newest = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return newest ? statSync(newest).size / 2 ** 20 : undefined;
}

const { createEmulator } = await import(pathToFileURL(join(DIST, 'lib.js')).href);

const CPUS = cpus().length;
const loadBefore = loadavg()[0];
const results = { node: process.version, cpus: CPUS, load_average_1m: { before: round2(loadBefore) }, sections: {} };
out(`pushctl bench: node ${process.version}, ${CPUS} CPUs, load average ${loadBefore.toFixed(2)}`);
if (loadBefore > CPUS * 0.75) out(`   warning: the machine is busy (load ${loadBefore.toFixed(2)} on ${CPUS} CPUs); times will be high and noisy`);
const rows = []; // [figure, measured, target, verdict]

try {
  if (only.includes('startup')) {
    const harness = { out, printTable, run, startEmulator, stopEmulator, rows, TMP, BIN, ROOT, DIST, RUNS, WARMUPS, CHILD_ENV };
    results.sections.startup = await benchStartup(harness);
  }
  if (only.includes('throughput')) results.sections.throughput = await benchThroughput();
  if (only.includes('memory') || only.includes('throughput')) {
    // Figure 3 (1,000,000 IDs, no limit) and figure 4 (peak RSS) are the same run.
    const big = await benchMillion();
    if (only.includes('throughput')) results.sections.unlimited = big.unlimited;
    if (only.includes('memory')) results.sections.memory = big.memory;
  }
  if (only.includes('emulator')) results.sections.emulator = await benchEmulatorLoad();
} catch (error) {
  say(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  for (const emu of emulators) await emu.close().catch(() => {});
  cleanup();
  process.exit(1);
}

const loadAfter = loadavg()[0];
results.load_average_1m.after = round2(loadAfter);
results.table = rows.map(([figure, measured, target, verdict]) => ({ figure, measured, target, verdict }));
if (args.json) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  out('');
  out('Summary (SPEC section 7)');
  printTable(['figure', 'measured', 'target', ''], rows);
  out(`   load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${CPUS} CPUs${Math.max(loadBefore, loadAfter) > CPUS * 0.75 ? ': a busy machine; run again when it is quiet' : ''}`);
}
cleanup();
process.exit(0);

// ---------------------------------------------------------------------------------------------------------
// 2. Throughput at the service's pace

async function benchThroughput() {
  const N = 100_000;
  const RATE = 50;
  const IDEAL_MS = 2000;
  const LIMIT_MS = IDEAL_MS * 1.05;
  const expected = Math.ceil(N / 1000);
  out(`\n2. Throughput at the service's pace: ${N.toLocaleString('en')} client IDs, emulator rate ${RATE}/s (sliding 1 s window), maxClientIds 1000, --rate ${RATE}; ${REPEAT} run${REPEAT === 1 ? '' : 's'}, each against a fresh emulator`);
  const file = await writeIdFile(`ids-${N}.txt`, N);
  out(`   client IDs: ${ID_SHAPE}; file ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`);
  const runs = [];
  for (let i = 0; i < REPEAT; i++) {
    const arrivals = [];
    let tooFrequent = 0;
    const emu = await startEmulator({
      rate: RATE,
      maxClientIds: 1000,
      log: (line) => {
        // One line per request, written after the answer: "<iso> POST /v1/message/push/<app> -> <note> <ms>ms".
        if (!/ \/v1\/message\/push[/ ?]/.test(line)) return;
        // The emulator's clock (Date, ms) for the rate window; ours (performance.now) for the phases, the
        // arrival being the answer time less the handling time the line ends with.
        const handled = Number(/ ([\d.]+)ms$/.exec(line)?.[1] ?? 0);
        const answeredAt = performance.now();
        arrivals.push({ at: Date.parse(line.slice(0, line.indexOf(' '))), arrivedAt: answeredAt - handled, answeredAt });
        if (line.includes(' -> 22001 ')) tooFrequent += 1;
      },
    });
    let r;
    try {
      r = await run(process.execPath, sendArgv(emu.url, file, RATE));
    } finally {
      await stopEmulator(emu);
    }
    const doc = parseSendJson(r, `send of ${N.toLocaleString('en')} IDs`);
    const batches = doc.batches ?? [];
    if (arrivals.length === 0) throw new Error('the emulator logged no push request; has its log line format changed?');
    // Phases on the bench clock: spawn → first request in → last request in → last answer out → exit.
    const firstArrival = min(arrivals.map((a) => a.arrivedAt));
    const lastArrival = max(arrivals.map((a) => a.arrivedAt));
    const lastAnswer = max(arrivals.map((a) => a.answeredAt));
    runs.push({
      wall_ms: r.ms,
      send_phase_ms: lastAnswer - firstArrival,
      starts_span_ms: lastArrival - firstArrival,
      spawn_to_first_request_ms: firstArrival - r.startedAt,
      last_answer_to_exit_ms: r.startedAt + r.ms - lastAnswer,
      max_requests_in_1s_window: maxInSlidingWindow(arrivals.map((a) => a.at).sort((a, b) => a - b), 1000),
      answers_22001: tooFrequent,
      batches_retried: batches.filter((b) => b.attempts > 1).length,
      extra_attempts: batches.reduce((n, b) => n + Math.max(0, b.attempts - 1), 0),
      batches_with_code_22001: batches.filter((b) => b.code === 22001).length,
      batches_accepted: batches.filter((b) => b.status === 'accepted').length,
      recipients_accepted: recipientsAccepted(doc),
      requests_seen: arrivals.length,
      exit_code: doc.exit_code,
    });
  }

  const med = (key) => median(runs.map((x) => x[key]));
  const sum = (key) => runs.reduce((n, x) => n + x[key], 0);
  const secs = (key) => `${(med(key) / 1000).toFixed(3)} s${REPEAT > 1 ? ` (${runs.map((x) => (x[key] / 1000).toFixed(3)).join(', ')})` : ''}`;
  const wallVerdict = med('wall_ms') <= LIMIT_MS ? 'PASS' : 'MISS';
  const phaseVerdict = med('send_phase_ms') <= LIMIT_MS ? 'PASS' : 'MISS';
  const worstWindow = max(runs.map((x) => x.max_requests_in_1s_window));
  const zeroVerdict = sum('answers_22001') === 0 && sum('batches_with_code_22001') === 0 && sum('extra_attempts') === 0 ? 'PASS' : 'MISS';
  const allAccepted = runs.every((x) => x.batches_accepted === expected && x.recipients_accepted === N && x.exit_code === 0);
  const allVerdict = allAccepted ? 'PASS' : 'MISS';
  const perRun = (key) => runs.map((x) => x[key]).join(', ');
  printTable(
    ['figure (median over runs; each run in brackets)', 'measured', 'target', ''],
    [
      ['wall time of `pushctl send` (spawn to exit)', secs('wall_ms'), `≤ ${(LIMIT_MS / 1000).toFixed(1)} s (ideal 2.0 s + 5%)`, wallVerdict],
      ['send phase (1st request in to last answer out)', secs('send_phase_ms'), `≤ ${(LIMIT_MS / 1000).toFixed(1)} s`, phaseVerdict],
      ['  of which: 1st to 100th request in', secs('starts_span_ms'), '≈ 1.98 s (99 gaps of 20.2 ms)', ''],
      ['before: spawn to 1st request in', secs('spawn_to_first_request_ms'), '', ''],
      ['after: last answer out to exit', secs('last_answer_to_exit_ms'), '', ''],
      ['most requests in any 1 s window (emulator clock)', perRun('max_requests_in_1s_window'), `≤ ${RATE}`, worstWindow <= RATE ? 'PASS' : 'MISS'],
      ['22001 answers (emulator log)', perRun('answers_22001'), '0', sum('answers_22001') === 0 ? 'PASS' : 'MISS'],
      ['batches retried / extra attempts / code 22001 (--json)', runs.map((x) => `${x.batches_retried}/${x.extra_attempts}/${x.batches_with_code_22001}`).join(', '), '0/0/0', zeroVerdict],
      ['batches accepted', perRun('batches_accepted'), `${expected} each`, allVerdict],
      ['recipients accepted', runs.map((x) => x.recipients_accepted.toLocaleString('en')).join(', '), `${N.toLocaleString('en')} each`, allVerdict],
    ],
  );
  out('   (wall time includes node start-up and reading the file; the ideal 2.0 s is 100 starts evenly spaced at 50/s)');
  rows.push(['100k IDs @ 50/s: wall time (median)', `${(med('wall_ms') / 1000).toFixed(3)} s`, '≤ 2.1 s', wallVerdict]);
  rows.push(['100k IDs @ 50/s: send phase (median)', `${(med('send_phase_ms') / 1000).toFixed(3)} s`, '≤ 2.1 s', phaseVerdict]);
  rows.push(['100k IDs @ 50/s: 22001 answers (all runs)', String(sum('answers_22001')), '0', sum('answers_22001') === 0 && zeroVerdict === 'PASS' ? 'PASS' : 'MISS']);
  rows.push(['100k IDs @ 50/s: batches accepted', runs.map((x) => `${x.batches_accepted}/${expected}`).join(', '), `${expected}/${expected}`, allVerdict]);
  return {
    ids: N,
    rate: RATE,
    ideal_ms: IDEAL_MS,
    limit_ms: LIMIT_MS,
    wall_ms_median: round1(med('wall_ms')),
    send_phase_ms_median: round1(med('send_phase_ms')),
    verdict_wall: wallVerdict,
    verdict_send_phase: phaseVerdict,
    verdict_zero_22001: zeroVerdict,
    verdict_all_accepted: allVerdict,
    runs: runs.map((x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k.endsWith('_ms') ? round1(v) : v]))),
  };
}

// ---------------------------------------------------------------------------------------------------------
// 3 + 4. One million IDs with no rate limit, and the peak RSS of those same runs

async function benchMillion() {
  const N = 1_000_000;
  const LIMIT_MS = 10_000;
  const RSS_LIMIT_MB = 200;
  const expected = Math.ceil(N / 1000);
  const timeBin = await hasGnuTime();
  const rssHow = timeBin ? `${TIME_BIN} -f %M` : 'process.resourceUsage().maxRSS at exit';
  out(`\n3+4. ${N.toLocaleString('en')} client IDs (a 1,000,000-line file), emulator rate 0, --rate 0; peak RSS of the same pushctl process; ${REPEAT} run${REPEAT === 1 ? '' : 's'}`);
  const file = await writeIdFile(`ids-${N}.txt`, N);
  out(`   client IDs: ${ID_SHAPE} (peak RSS grows with ID length); file ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB`);
  const hook = join(TMP, 'maxrss.mjs');
  if (!timeBin) writeFileSync(hook, "process.on('exit', () => process.stderr.write(`PUSHCTL_BENCH_MAXRSS=${process.resourceUsage().maxRSS}\\n`));\n");
  const runs = [];
  for (let i = 0; i < REPEAT; i++) {
    const emu = await startEmulator({ rate: 0, maxClientIds: 1000 });
    let r;
    try {
      const argv = sendArgv(emu.url, file, 0);
      // GNU time prints the child's maximum resident set size in KiB; without it a preloaded module prints
      // process.resourceUsage().maxRSS (also KiB) as the process exits.
      r = timeBin
        ? await run(TIME_BIN, ['-f', 'PUSHCTL_BENCH_MAXRSS=%M', process.execPath, ...argv])
        : await run(process.execPath, ['--import', pathToFileURL(hook).href, ...argv]);
    } finally {
      await stopEmulator(emu);
    }
    const doc = parseSendJson(r, `send of ${N.toLocaleString('en')} IDs`);
    const m = /PUSHCTL_BENCH_MAXRSS=(\d+)/.exec(r.stderr);
    const journal = newestJournalMiB();
    runs.push({
      journal_mib: journal === undefined ? null : round1(journal),
      wall_ms: r.ms,
      peak_rss_kib: m ? Number(m[1]) : null,
      batches_accepted: (doc.batches ?? []).filter((b) => b.status === 'accepted').length,
      recipients_accepted: recipientsAccepted(doc),
      exit_code: doc.exit_code,
    });
  }
  const wallMed = median(runs.map((x) => x.wall_ms));
  const rssValues = runs.map((x) => x.peak_rss_kib).filter((x) => x !== null);
  const rssMB = rssValues.length > 0 ? max(rssValues) / 1024 : undefined;
  const wallVerdict = wallMed < LIMIT_MS ? 'PASS' : 'MISS';
  const allVerdict = runs.every((x) => x.batches_accepted === expected && x.recipients_accepted === N && x.exit_code === 0) ? 'PASS' : 'MISS';
  const rssVerdict = rssMB === undefined ? 'n/a' : rssMB < RSS_LIMIT_MB ? 'PASS' : 'MISS';
  const list = (xs) => (REPEAT > 1 ? ` (${xs.join(', ')})` : '');
  const table = [];
  if (only.includes('throughput')) {
    table.push(['wall time of `pushctl send`, median (spawn to exit)', `${(wallMed / 1000).toFixed(3)} s${list(runs.map((x) => (x.wall_ms / 1000).toFixed(3)))}`, `< ${LIMIT_MS / 1000} s`, wallVerdict]);
    table.push(['batches accepted', runs.map((x) => x.batches_accepted).join(', '), `${expected} each`, allVerdict]);
    table.push(['recipients accepted', runs.map((x) => x.recipients_accepted.toLocaleString('en')).join(', '), `${N.toLocaleString('en')} each`, allVerdict]);
    rows.push(['1M IDs, no limit: wall time (median)', `${(wallMed / 1000).toFixed(3)} s`, `< ${LIMIT_MS / 1000} s`, wallVerdict]);
    rows.push(['1M IDs, no limit: batches accepted', runs.map((x) => `${x.batches_accepted}/${expected}`).join(', '), `${expected}/${expected}`, allVerdict]);
  }
  if (only.includes('memory')) {
    const shown = rssMB === undefined ? 'not measured' : `${rssMB.toFixed(1)} MB${list(rssValues.map((k) => (k / 1024).toFixed(1)))}`;
    table.push([`peak RSS of pushctl, worst run (${rssHow})`, shown, `< ${RSS_LIMIT_MB} MB`, rssVerdict]);
    rows.push(['1M-line file: peak RSS (worst run)', rssMB === undefined ? 'not measured' : `${rssMB.toFixed(1)} MB`, `< ${RSS_LIMIT_MB} MB`, rssVerdict]);
  }
  const journalSizes = runs.map((x) => x.journal_mib).filter((x) => x !== null);
  table.push(['run journal written (journal on)', journalSizes.length > 0 ? `${journalSizes[0]} MiB` : 'none found', '(no target)', '']);
  rows.push(['1M IDs: run journal size', journalSizes.length > 0 ? `${journalSizes[0]} MiB` : 'none found', '(no target)', '']);
  printTable(['figure', 'measured', 'target', ''], table);
  out('   (MB = 2^20 bytes; the RSS is of the pushctl node process alone: the emulator runs in the bench process)');
  return {
    unlimited: { ids: N, limit_ms: LIMIT_MS, wall_ms_median: round1(wallMed), verdict: wallVerdict, verdict_all_accepted: allVerdict, batches_expected: expected, runs: runs.map((x) => ({ ...x, wall_ms: round1(x.wall_ms) })) },
    memory: { ids: N, limit_mb: RSS_LIMIT_MB, peak_rss_mb_worst: rssMB === undefined ? null : round1(rssMB), peak_rss_kib_per_run: runs.map((x) => x.peak_rss_kib), verdict: rssVerdict, measured_with: rssHow },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Extra (no target in SPEC): the emulator under load, by bench/emulator-load.mjs in its own processes

async function benchEmulatorLoad() {
  out('\n5. Extra, no target: emulator under load (bench/emulator-load.mjs: emulator in a child process, rate limit off)');
  const scratch = join(ROOT, '.bench-tmp');
  const hadScratch = existsSync(scratch);
  let r;
  try {
    r = await run(process.execPath, [join(ROOT, 'bench', 'emulator-load.mjs'), '--json']);
  } finally {
    // It bundles the emulator into .bench-tmp/ (git-ignored); leave the tree as it was.
    if (!hadScratch) rmSync(scratch, { recursive: true, force: true });
  }
  let doc;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    out(`   emulator-load.mjs gave no JSON (exit ${r.code ?? r.signal}): ${r.stderr.slice(0, 300)}`);
    return { error: `exit ${r.code ?? r.signal}` };
  }
  const phases = doc.phases ?? [];
  printTable(
    ['phase', 'requests', 'concurrency', 'IDs each', 'req/s', 'errors', 'emulator RSS after'],
    phases.map((p) => [p.name, p.requests, p.concurrency, p.ids, Math.round(p.requestsPerSecond), p.errors, `${p.rssAfterMB} MB`]),
  );
  for (const p of phases) rows.push([`emulator: ${p.name}`, `${Math.round(p.requestsPerSecond)} req/s, ${p.errors} errors`, '(no target)', '']);
  return { wall_ms: round1(r.ms), phases };
}

function recipientsAccepted(doc) {
  const fromSummary = doc.summary?.recipients?.accepted;
  if (typeof fromSummary === 'number') return fromSummary;
  return (doc.batches ?? []).filter((b) => b.status === 'accepted').reduce((n, b) => n + b.recipients, 0);
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

function sendArgv(url, file, rate) {
  return [BIN, 'send', '--base-url', url, '--app-id', 'demo-app', '--client-ids-file', file, '--title', 'Hi', '--desc', 'bench', '--rate', String(rate), '--json'];
}

function parseSendJson(r, what) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${what}: no JSON on stdout (exit ${r.code ?? r.signal}); stderr: ${r.stderr.slice(0, 800)}`);
  }
}

/** Writes `n` distinct 32-character client IDs, one per line. */
async function writeIdFile(name, n) {
  const path = join(TMP, name);
  const stream = createWriteStream(path);
  const CHUNK = 10_000;
  for (let i = 0; i < n; i += CHUNK) {
    let text = '';
    for (let j = i; j < Math.min(n, i + CHUNK); j++) text += `c${j.toString(16).padStart(31, '0')}\n`;
    if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  await new Promise((resolve, reject) => stream.end((error) => (error ? reject(error) : resolve())));
  return path;
}

async function startEmulator(options) {
  const emu = await createEmulator({ host: '127.0.0.1', port: 0, keep: 100, keepClientIds: 10_000, ...options });
  emulators.add(emu);
  return emu;
}

async function stopEmulator(emu) {
  emulators.delete(emu);
  await emu.close();
}

/** Runs a child with piped stdio and a time limit; `ms` is from just before spawn to its exit. */
function run(command, argv, env = CHILD_ENV) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(command, argv, { cwd: TMP, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS, killSignal: 'SIGKILL' });
    children.add(child);
    let ms = 0;
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (b) => stdout.push(b));
    child.stderr.on('data', (b) => stderr.push(b));
    child.on('exit', () => {
      ms = performance.now() - startedAt;
    });
    child.on('error', (error) => {
      children.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      if (signal === 'SIGKILL') say(`bench: ${command} ${argv.slice(0, 2).join(' ')} … killed (time limit ${CHILD_TIMEOUT_MS / 1000} s)`);
      resolve({ code, signal, ms, startedAt, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

function hasGnuTime() {
  if (!existsSync(TIME_BIN)) return false;
  return new Promise((resolve) => {
    const child = spawn(TIME_BIN, ['-f', '%M', process.execPath, '-e', '0'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0 && /^\d+\s*$/.test(err.trim().split('\n').pop() ?? '')));
  });
}

function printTable(header, body) {
  if (body.length === 0) return;
  const all = [header, ...body];
  const widths = header.map((_, c) => Math.max(...all.map((row) => String(row[c] ?? '').length)));
  const line = (row) => `   ${row.map((cell, c) => String(cell ?? '').padEnd(widths[c])).join('  ').trimEnd()}`;
  out(line(header));
  out(`   ${widths.map((w) => '-'.repeat(w)).join('  ')}`.trimEnd());
  for (const row of body) out(line(row));
}

function positiveInt(text, name) {
  const n = Number.parseInt(text, 10);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`bench: --${name} must be a whole number of 1 or more\n`);
    process.exit(2);
  }
  return n;
}
