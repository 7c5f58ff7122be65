// Figure 1 of `npm run bench` (SPEC section 7): start-up of each command against `node -e 0`, on this
// machine as it is and, when it sets NODE_EXTRA_CA_CERTS, again on a plain Node.js start; and the floor, a
// bare Node.js script making the same one request (one-request.cjs).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kib, max, median, min, round1, round2 } from './stats.mjs';

export async function benchStartup(h) {
  const { out, printTable, startEmulator, stopEmulator, rows, TMP, BIN, ROOT, DIST, RUNS, WARMUPS, CHILD_ENV } = h;
  out(`\n1. Start-up: median of ${RUNS} runs after ${WARMUPS} warm-up${WARMUPS === 1 ? '' : 's'}, commands interleaved round-robin;`);
  out('   "vs node" is the median of the per-round ratios (each command against node -e 0 of the same round),');
  out('   which cancels the drift of a shared machine better than a ratio of two medians');
  const small = join(TMP, 'small.json');
  writeFileSync(
    small,
    JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'A small message', open_type: 1 } }),
  );
  const emu = await startEmulator({ rate: 0 });
  const commands = [
    { name: 'node -e 0', argv: ['-e', '0'], target: null },
    { name: 'pushctl --help', argv: [BIN, '--help'], target: 1.4 },
    { name: 'pushctl --version', argv: [BIN, '--version'], target: 1.4 },
    { name: 'pushctl validate -f small.json', argv: [BIN, 'validate', '-f', small], target: 1.4 },
    {
      name: 'pushctl send (1 message, emulator, journal on)',
      argv: [BIN, 'send', '--base-url', emu.url, '--app-id', 'demo-app', '--client-id', 'bench-client-1', '--title', 'Hi', '--desc', 'bench', '--rate', '0'],
      target: 1.5,
      sends: true,
    },
    // No target: what any Node.js program pays to send one request (see bench/one-request.cjs).
    { name: 'floor: bare node, the same request', argv: [join(ROOT, 'bench', 'one-request.cjs'), emu.url, 'demo-app', 'demo-secret'], target: null, sends: true },
  ];
  const section = { runs: RUNS, warmups: WARMUPS, commands: [] };
  try {
    const table = await startupPass(h, commands, CHILD_ENV, emu, { rows, section });
    printTable(['command', 'median', 'range', 'vs node', 'target', ''], table);
    // This machine may set NODE_EXTRA_CA_CERTS for every process: Node then parses that bundle before any
    // script runs, which makes `node -e 0` slower and every ratio smaller. The verdicts above are the
    // machine as it is (SPEC section 7); this pass shows the same commands on a plain Node.js start.
    const caBundle = CHILD_ENV.NODE_EXTRA_CA_CERTS;
    if (caBundle) {
      const plainEnv = { ...CHILD_ENV };
      delete plainEnv.NODE_EXTRA_CA_CERTS;
      out(`\n   The same without NODE_EXTRA_CA_CERTS (set here to ${caBundle}, ${countCertificates(caBundle)} certificates, which Node parses at`);
      out('   every start, before any script): a plain Node.js start, as on a machine without the setting; no verdicts');
      const plain = { commands: [] };
      const plainRows = [];
      const plainTable = await startupPass(h, commands, plainEnv, emu, { rows: plainRows, section: plain, informational: true });
      printTable(['command', 'median', 'range', 'vs node', 'target', ''], plainTable);
      section.without_extra_ca_certs = plain;
      for (const [figure, measured] of plainRows) rows.push([`${figure}, no NODE_EXTRA_CA_CERTS`, measured, '(information)', '']);
    }
  } finally {
    await stopEmulator(emu);
  }

  const size = bundleSize(DIST);
  section.bundle = size;
  out(`   bundle: dist/main.cjs ${kib(size.main_bytes)}; read before any command runs (the loader, main.cjs and its V8 code cache): ${kib(size.startup_bytes)} in ${size.startup_files} files`);
  out(`           JavaScript in dist/ ${kib(size.js_bytes)} in ${size.js_files} files; dist/ total ${kib(size.total_bytes)} in ${size.total_files} files (the rest: type declarations, maps)`);
  rows.push(['bundle: dist/main.cjs', kib(size.main_bytes), '(no target)', '']);
  rows.push(['bundle: static start-up path', `${kib(size.startup_bytes)} (${size.startup_files} files)`, '(no target)', '']);
  rows.push(['bundle: dist/ JavaScript', `${kib(size.js_bytes)} (${size.js_files} files)`, '(no target)', '']);
  return section;
}

/** One round-robin pass over `commands` in `env`; returns the printed table, and fills `rows` and `section`. */
async function startupPass(h, commands, env, emu, { rows: summary, section, informational = false }) {
  const { run, RUNS, WARMUPS } = h;
  const times = commands.map(() => []);
  const acceptedBefore = emu.stats().accepted;
  for (let round = 0; round < WARMUPS + RUNS; round++) {
    // Rotate the starting command each round as well, so no command always follows the same one.
    for (let k = 0; k < commands.length; k++) {
      const i = (round + k) % commands.length;
      const r = await run(process.execPath, commands[i].argv, env);
      if (r.code !== 0) throw new Error(`${commands[i].name} exited ${r.code ?? r.signal}: ${r.stderr.slice(0, 500)}`);
      if (round >= WARMUPS) times[i].push(r.ms);
    }
  }
  const senders = commands.filter((c) => c.sends).length;
  const sent = emu.stats().accepted - acceptedBefore;
  if (sent !== senders * (WARMUPS + RUNS)) throw new Error(`emulator accepted ${sent} messages, expected ${senders * (WARMUPS + RUNS)}`);

  const table = [];
  for (const [i, c] of commands.entries()) {
    const med = median(times[i]);
    const ratio = median(times[i].map((t, round) => t / times[0][round]));
    const verdict = c.target === null || informational ? '' : ratio <= c.target ? 'PASS' : 'MISS';
    const target = c.target === null ? (i === 0 ? '(baseline)' : '(reference)') : `≤ ${c.target}x`;
    table.push([c.name, `${med.toFixed(1)} ms`, `${min(times[i]).toFixed(1)}–${max(times[i]).toFixed(1)} ms`, `${ratio.toFixed(2)}x`, target, verdict]);
    section.commands.push({ name: c.name, median_ms: round1(med), min_ms: round1(min(times[i])), max_ms: round1(max(times[i])), ratio: round2(ratio), target_ratio: c.target, verdict: verdict || null, samples_ms: times[i].map(round1) });
    if (i > 0) summary.push([`start-up: ${c.name.replace('pushctl ', '')}`, `${med.toFixed(0)} ms = ${ratio.toFixed(2)}x node`, c.target === null ? '(reference)' : `≤ ${c.target}x`, verdict]);
  }
  return table;
}

function countCertificates(file) {
  try {
    return readFileSync(file, 'utf8').split('-----BEGIN CERTIFICATE-----').length - 1;
  } catch {
    return 'unreadable';
  }
}

function bundleSize(DIST) {
  let js = 0;
  let jsFiles = 0;
  let total = 0;
  let totalFiles = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const bytes = statSync(path).size;
        total += bytes;
        totalFiles += 1;
        if (/\.[mc]?js$/.test(entry.name)) {
          js += bytes;
          jsFiles += 1;
        }
      }
    }
  };
  walk(DIST);
  // What every start reads before a command's own island: the loader, the main island and its code cache.
  const startupFiles = ['pushctl.cjs', 'main.cjs', 'main.cjs.v8'].map((f) => join(DIST, f)).filter((f) => existsSync(f));
  const startup = startupFiles.reduce((n, f) => n + statSync(f).size, 0);
  return { main_bytes: statSync(join(DIST, 'main.cjs')).size, startup_bytes: startup, startup_files: startupFiles.length, js_bytes: js, js_files: jsFiles, total_bytes: total, total_files: totalFiles };
}
