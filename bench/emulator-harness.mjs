// Shared by the emulator's figures (bench/emulator-fanout.mjs, bench/emulator-memory.mjs, run by the figures in bench/figures/emulator-*.mjs): the built `pushctl serve` in a child
// process, its memory read from /proc, pushes over keep-alive connections, and the figure lines.
// Every server listens on 127.0.0.1 only and every child is killed when the figure ends.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MiB = 2 ** 20;
const START_TIMEOUT_MS = 30_000;

/** Starts `pushctl serve --port 0 --rate 0 ...flags` from dist/ (or from `root`, for a before/after). */
export async function startServe(flags = [], root = ROOT) {
  const bin = `${root.endsWith('/') ? root : `${root}/`}bin/pushctl.cjs`;
  if (!existsSync(bin.replace('bin/pushctl.cjs', 'dist/main.cjs'))) throw new Error(`${bin}: dist/ is missing; run npm run build first`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PUSHCTL_') && k !== 'NODE_OPTIONS' && k !== 'NODE_EXTRA_CA_CERTS'));
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--rate', '0', ...flags], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The request log goes to stderr: read and dropped, as a terminal would show and forget it.
  child.stderr.resume();
  process.on('exit', () => child.kill('SIGKILL'));
  const url = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('pushctl serve did not start within 30 s')), START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      text += d;
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    child.on('exit', (code) => reject(new Error(`pushctl serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    /** Current and peak resident memory of the emulator process, in MiB. */
    memory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
      return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
    },
    /** CPU seconds the emulator process has used (user + system). */
    cpu: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One push; resolves with the body status and the milliseconds it took. */
export function push(url, body, app = 'demo-app', secret = 'demo-secret') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/message/push/${app}`, { method: 'POST', agent, headers: { authorization: secret, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } }, (res) => {
      let answer = '';
      res.setEncoding('utf8').on('data', (d) => (answer += d));
      res.on('end', () => resolve({ status: JSON.parse(answer).status, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** `total` pushes of `body()` with `concurrency` in flight; resolves with the wall time and each push's time. */
export async function pushMany(url, total, concurrency, body) {
  let next = 0;
  const times = [];
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next += 1;
      const { status, ms } = await push(url, body(next));
      if (status !== 200) throw new Error(`push answered ${status}`);
      times.push(ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { seconds: (performance.now() - started) / 1000, times };
}

export async function getJson(url) {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve(JSON.parse(text)));
    })
      .on('error', reject)
      .end();
  });
}

/** 1000 distinct client IDs of 32 characters, as a real batch has. */
export function thousandIds(seed) {
  return Array.from({ length: 1000 }, (_, i) => `c${(seed * 1000 + i).toString(16).padStart(31, '0')}`);
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};

/** One figure line, as every bench figure prints it. */
export function figure(name, measured, target, pass) {
  process.stdout.write(`figure ${name}: ${measured} … target ${target} … ${pass ? 'PASS' : 'MISS'}\n`);
  return pass;
}
