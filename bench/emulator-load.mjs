#!/usr/bin/env node
// Load test of the emulator on loopback: many keep-alive clients, rate limit off, two phases by default
// (20,000 small requests from 50 clients, then 1,000 requests of 1,000 client IDs). Reports requests per
// second, errors and the emulator's memory before and after each phase, then stops by itself.
//
//   node bench/emulator-load.mjs                      # builds src/emulator with esbuild, runs it in a child process
//   node bench/emulator-load.mjs --requests 5000 --concurrency 20 --ids 100
//   node bench/emulator-load.mjs --url http://127.0.0.1:8787 --app demo-app --secret demo-secret
//   node bench/emulator-load.mjs --json               # one JSON document on stdout, for bench/run.mjs
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = new URL('..', import.meta.url);
const BUNDLE = fileURLToPath(new URL('.bench-tmp/emulator-load-bundle.mjs', ROOT));
const DEADLINE_MS = 180_000;

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    app: { type: 'string', default: 'demo-app' },
    secret: { type: 'string', default: 'demo-secret' },
    requests: { type: 'string' },
    concurrency: { type: 'string' },
    ids: { type: 'string' },
    json: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
  },
});

if (args.serve) await serveChild();
else await main();

/** Child mode: run the emulator with no rate limit and answer memory queries over IPC. */
async function serveChild() {
  const { createEmulator } = await import(BUNDLE);
  const emu = await createEmulator({ port: 0, rate: 0 });
  process.on('message', async (msg) => {
    if (msg === 'memory') {
      globalThis.gc?.();
      process.send({ memory: process.memoryUsage(), stats: emu.stats() });
    } else if (msg === 'close') {
      await emu.close();
      process.exit(0);
    }
  });
  process.send({ url: emu.url });
}

async function main() {
  const timer = setTimeout(() => {
    console.error(`emulator-load: still running after ${DEADLINE_MS / 1000} s; giving up`);
    process.exit(1);
  }, DEADLINE_MS);
  timer.unref();

  const phases = args.requests || args.concurrency || args.ids
    ? [{ name: 'custom', requests: int(args.requests, 20_000), concurrency: int(args.concurrency, 50), ids: int(args.ids, 10) }]
    : [
        { name: 'small bodies', requests: 20_000, concurrency: 50, ids: 10 },
        { name: '1000 client IDs', requests: 1_000, concurrency: 8, ids: 1_000 },
      ];

  const child = args.url ? undefined : await startChild();
  const url = args.url ?? child.url;
  const results = [];
  for (const phase of phases) {
    const before = await child?.ask('memory');
    const run = await load(url, phase);
    const after = await child?.ask('memory');
    results.push({ ...phase, ...run, rssBeforeMB: mb(before?.memory.rss), rssAfterMB: mb(after?.memory.rss), heapAfterMB: mb(after?.memory.heapUsed), kept: after?.stats.kept });
  }
  await child?.close();

  if (args.json) {
    console.log(JSON.stringify({ url: args.url ?? 'in-process child', phases: results }, null, 2));
  } else {
    for (const r of results) {
      console.log(
        `${r.name}: ${r.requests} requests x ${r.ids} client IDs from ${r.concurrency} keep-alive clients: ` +
          `${Math.round(r.requestsPerSecond)} requests/s (${Math.round(r.requestsPerSecond * r.ids)} client IDs/s), ` +
          `${r.errors} errors, answers ${JSON.stringify(r.statuses)}, ${r.seconds.toFixed(2)} s` +
          (r.rssBeforeMB === undefined ? '' : `, emulator RSS ${r.rssBeforeMB} MB -> ${r.rssAfterMB} MB (heap ${r.heapAfterMB} MB after GC, ${r.kept} messages kept)`),
      );
    }
  }
  const failed = results.some((r) => r.errors > 0 || Object.keys(r.statuses).some((k) => k !== '200/200'));
  process.exitCode = failed ? 1 : 0;
}

async function startChild() {
  const { build } = await import('esbuild');
  mkdirSync(new URL('.bench-tmp/', ROOT), { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL('src/emulator/index.ts', ROOT))],
    outfile: BUNDLE,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  const proc = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise((resolve, reject) => {
    proc.once('message', resolve);
    proc.once('exit', (code) => reject(new Error(`emulator child exited with ${code}`)));
  });
  const { url } = await next();
  return {
    url,
    ask: (what) => {
      const answer = next();
      proc.send(what);
      return answer;
    },
    close: () => new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.send('close');
    }),
  };
}

async function load(url, { requests, concurrency, ids }) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const body = JSON.stringify({
    type: 1,
    time_to_live: 3600,
    condition: { type: 2, client_ids: Array.from({ length: ids }, (_, i) => `client-${String(i).padStart(8, '0')}`) },
    notification: { title: 'Load test', desc: 'emulator-load' },
  });
  const target = new URL(`/v1/message/push/${encodeURIComponent(args.app)}`, url);
  const headers = { authorization: args.secret, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  const statuses = {};
  let errors = 0;
  let next = 0;
  const post = () =>
    new Promise((resolve) => {
      const req = request(target, { method: 'POST', agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let status = 'not JSON';
          try {
            status = JSON.parse(Buffer.concat(chunks).toString()).status;
          } catch {
            errors += 1;
          }
          const key = `${res.statusCode}/${status}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
          resolve();
        });
        res.on('error', () => {
          errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const worker = async () => {
    while (next < requests) {
      next += 1;
      await post();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { seconds, requestsPerSecond: requests / seconds, errors, statuses };
}

function int(text, fallback) {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`emulator-load: expected a whole number above 0, got ${text}`);
    process.exit(2);
  }
  return n;
}

function mb(bytes) {
  return bytes === undefined ? undefined : Math.round(bytes / 1024 / 1024);
}
