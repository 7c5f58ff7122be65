// What a bench figure (bench/figures/*.mjs) is given to measure with: the Node.js it measures on, children
// with a time limit, emulators in this process or as `pushctl serve`, a relay that sees when the first
// request leaves, files of client IDs, and measurements shared by several figures. Everything a figure
// starts through it is stopped when the figure ends, whether it finished, failed or ran out of time.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'pushctl.cjs');
const CHILD_TIMEOUT_MS = 120_000;
/** Every child still running, whichever figure started it: killed if the bench itself must stop. */
const live = new Set();

export function killAll() {
  for (const child of live) child.kill('SIGKILL');
}

/**
 * The environment of every child: no PUSHCTL_* or npm settings of the caller, a private config home and
 * run journals in the bench's temporary folder (docs/behaviour.md#performance measures with the journal on), and no
 * NODE_EXTRA_CA_CERTS, which makes Node parse a certificate bundle before any script, so a ratio would
 * measure the machine's setting rather than pushctl.
 */
export function childEnv(tmp) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('PUSHCTL_') && !k.startsWith('npm_') && k !== 'NODE_OPTIONS' && k !== 'NODE_EXTRA_CA_CERTS'),
  );
  return { ...env, PUSHCTL_APP_SECRET: 'demo-secret', XDG_CONFIG_HOME: join(tmp, 'config'), PUSHCTL_JOURNAL_DIR: join(tmp, 'runs'), NO_COLOR: '1' };
}

/** Files of `n` distinct 32-character client IDs ("c" and 31 hex digits), written once per bench run. */
export function idFiles(tmp) {
  const written = new Map();
  return (n) => {
    if (!written.has(n)) written.set(n, writeIds(join(tmp, `ids-${n}.txt`), n));
    return written.get(n);
  };
}

async function writeIds(path, n) {
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

/**
 * The harness for one Node.js: `node` runs pushctl and every child; `shared` holds measurements that
 * several figures read (see once()), per Node.js.
 */
export function createHarness({ node, tmp, env, ids, options, say }) {
  const shared = new Map();
  const { createEmulatorPromise } = options;
  const owned = new Set();

  const h = {
    node,
    nodeVersion: undefined,
    tmp,
    env,
    options,
    BIN,
    ROOT,
    say,
    ids,

    /** A child with piped output and a time limit; `ms` runs from just before the spawn to its exit. */
    run(command, argv, { env: extra = env, timeoutMs = CHILD_TIMEOUT_MS, cwd = tmp } = {}) {
      return new Promise((resolve, reject) => {
        const startedAt = performance.now();
        const child = spawn(command, argv, { cwd, env: extra, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
        live.add(child);
        child.on('exit', () => live.delete(child));
        const stop = () => child.kill('SIGKILL');
        owned.add(stop);
        let ms = 0;
        const stdout = [];
        const stderr = [];
        child.stdout.on('data', (b) => stdout.push(b));
        child.stderr.on('data', (b) => stderr.push(b));
        child.on('exit', () => (ms = performance.now() - startedAt));
        child.on('error', (error) => {
          owned.delete(stop);
          reject(error);
        });
        child.on('close', (code, signal) => {
          owned.delete(stop);
          if (signal === 'SIGKILL') say(`   ${command} ${argv.slice(0, 2).join(' ')} … killed (time limit ${timeoutMs / 1000} s)`);
          resolve({ code, signal, ms, startedAt, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
        });
      });
    },

    /** `pushctl <args>` on this harness's Node.js. */
    pushctl(args, runOptions) {
      return h.run(node, [BIN, ...args], runOptions);
    },

    /** An emulator in this process (the library's createEmulator), closed when the figure ends. */
    async emulator(emulatorOptions = {}) {
      const { createEmulator } = await createEmulatorPromise();
      const emu = await createEmulator({ host: '127.0.0.1', port: 0, keep: 100, keepClientIds: 10_000, ...emulatorOptions });
      const close = () => emu.close().catch(() => {});
      owned.add(close);
      return emu;
    },

    /**
     * `pushctl serve --port 0 <flags>` as its own process on this harness's Node.js: its URL, its pid, its
     * resident memory now and at its peak (from /proc), and stop().
     */
    async serve(flags = []) {
      const child = spawn(node, [BIN, 'serve', '--port', '0', ...flags], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
      live.add(child);
      child.on('exit', () => live.delete(child));
      const stop = () =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5000).unref();
        });
      owned.add(stop);
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
      const url = await new Promise((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim());
        });
        child.once('exit', (code) => reject(new Error(`pushctl serve ${flags.join(' ')} exited with ${code}: ${stderr.slice(0, 400)}`)));
      });
      const status = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      return { url, pid: child.pid, child, rssKiB: () => status('VmRSS'), peakRssKiB: () => status('VmHWM'), stop };
    },

    /**
     * A loopback relay in front of `url`: its own URL, and when the first byte of a request went through
     * and the last byte of an answer came back (performance.now(), the clock of run()'s startedAt).
     */
    async relay(url) {
      const target = new URL(url);
      const seen = { firstRequestAt: undefined, lastAnswerAt: undefined, connections: 0 };
      const sockets = new Set();
      const server = createServer((client) => {
        seen.connections += 1;
        const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.on('data', (chunk) => {
          seen.firstRequestAt ??= performance.now();
          if (!upstream.write(chunk)) client.pause();
        });
        upstream.on('drain', () => client.resume());
        upstream.on('data', (chunk) => {
          seen.lastAnswerAt = performance.now();
          if (!client.write(chunk)) upstream.pause();
        });
        client.on('drain', () => upstream.resume());
        client.on('end', () => upstream.end());
        upstream.on('end', () => client.end());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const close = () =>
        new Promise((resolve) => {
          for (const s of sockets) s.destroy();
          server.close(() => resolve());
        });
      owned.add(close);
      return { url: `${target.protocol}//127.0.0.1:${server.address().port}`, seen, close };
    },

    /** A measurement several figures share (the same big send gives wall time, first request and RSS). */
    once(key, measure) {
      if (!shared.has(key)) shared.set(key, measure());
      return shared.get(key);
    },

    /** Runs one figure's measure() within `timeoutMs`, then stops whatever it started. */
    async within(measure, timeoutMs) {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs / 1000} s`)), timeoutMs);
      });
      try {
        return await Promise.race([measure(), late]);
      } finally {
        clearTimeout(timer);
        const stops = [...owned];
        owned.clear();
        for (const stop of stops) await stop();
      }
    },
  };
  return h;
}

/** The library's createEmulator, imported once from the build. */
export function libraryLoader() {
  let loaded;
  return () => (loaded ??= import(pathToFileURL(join(ROOT, 'dist', 'lib.js')).href));
}
