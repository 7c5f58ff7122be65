import { SERVE_DEFAULTS } from './defaults.js';
import { setFlagsFromString } from 'node:v8';
import type { Ctx } from '../../context.js';
import { isLoopbackHost } from '../../client/loopback.js';
import { CliError, configError, ExitCode, usageError } from '../../errors.js';
import { InputInterruptedError, InputTooLargeError, readWholeFile } from '../../read-whole-file.js';
import type { Emulator, EmulatorApp, Fleet } from '../../emulator/index.js';
import { printServe, type ServeOutcome } from '../../output/serve.js';
import { runnable } from '../shared/runnable.js';
import { serveOptionsSchema, type ServeOptions } from './options.js';

/**
 * Runs the emulator until `ctx.interrupt` fires, then closes it; the outcome counts the messages accepted.
 * The URL goes to stdout alone (so `pushctl serve --port 0` can be captured by a script);
 * instructions and one line per request go to stderr.
 */
export async function serve(options: ServeOptions, ctx: Ctx): Promise<ServeOutcome> {
  const chaosSeed = options.chaosSeed ?? SERVE_DEFAULTS.chaosSeed;
  const keepMb = options.keepMb ?? SERVE_DEFAULTS.keepMb;

  boundHeapGrowth(ctx.env.NODE_OPTIONS, process.version);
  // The emulator is loaded only here, so the other commands never pay for it at start-up.
  const emu = await import('../../emulator/index.js');
  const fromFlags = appsFromFlags(emu, options.app);
  const fleet = await loadFleet(emu, options, chaosSeed, ctx.interrupt);

  if (options.chaos !== undefined) {
    try {
      emu.parseChaosSpec(options.chaos);
    } catch (error) {
      throw usageError(`--chaos: ${(error as Error).message}`, 'e.g. --chaos 22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms');
    }
  }

  // Said before listening: the exposure starts the moment the port opens.
  if (!isLoopbackHost(options.host)) {
    ctx.stderr.write(`warning: --host ${options.host} is not loopback: anyone who can reach this address can read every message sent to the emulator, and its inbox page\n`);
  }

  const log = batchedLines((text) => ctx.stderr.write(text));
  let emulator: Emulator;
  try {
    const fromFile = options.apps === undefined ? [] : await emu.loadAppsFile(options.apps, ctx.interrupt).catch((error: unknown) => {
      // By name: the emulator's bundle may hold its own copy of the class.
      throw (error as Error).name === 'InputInterruptedError' ? startFileError(new InputInterruptedError(), `--apps ${options.apps}`, '') : error;
    });
    const tls = await readTlsFiles(options, ctx.interrupt);
    // Loaded before listening, so a certificate that would fail every handshake is refused at start.
    const problem = tls && emu.checkTlsPair(tls.cert, tls.key);
    if (problem) {
      const [flag, path] = problem.part === 'cert' ? ['--tls-cert', options.tlsCert] : ['--tls-key', options.tlsKey];
      throw configError(`${flag} ${path} ${problem.reason}`, 'give the server certificate (--tls-cert) and its own private key (--tls-key), both PEM');
    }
    emulator = await emu.createEmulator({
      host: options.host,
      port: options.port,
      apps: [...fromFile, ...fromFlags],
      rate: options.rate,
      maxClientIds: options.maxClientIds,
      record: options.record,
      ...(options.chaos !== undefined ? { chaos: options.chaos } : {}),
      chaosSeed,
      ...(fleet ? { fleet } : {}),
      ...keepBudget(keepMb, fleet?.bytes ?? 0),
      ...(tls ? { tls } : {}),
      log: log.add,
    });
  } catch (error) {
    throw startError(emu, error, options);
  }

  ctx.stdout.write(`${emulator.url}\n`);
  ctx.stderr.write(banner(emulator, options, fromFlags.length > 0 || options.apps !== undefined, fleet?.size));

  if (!ctx.interrupt.aborted) await new Promise((resolve) => ctx.interrupt.addEventListener('abort', resolve, { once: true }));
  ctx.stderr.write('stopping the emulator...\n');
  await emulator.close();
  log.flush();
  return { exitCode: ExitCode.ok, accepted: emulator.stats().accepted };
}

type EmulatorModule = typeof import('../../emulator/index.js');

/** The apps given with --app, each checked. */
function appsFromFlags(emu: EmulatorModule, specs: readonly string[]): EmulatorApp[] {
  return specs.map((spec) => {
    try {
      return emu.parseAppSpec(spec);
    } catch (error) {
      throw error instanceof emu.EmulatorConfigError ? usageError(error.message, error.hint) : error;
    }
  });
}

/** The simulated devices: a synthetic fleet (--fleet), a file of them (--devices), or none. */
async function loadFleet(emu: EmulatorModule, options: ServeOptions, chaosSeed: number, signal: AbortSignal): Promise<Fleet | undefined> {
  if (options.devices !== undefined && options.fleet !== undefined) throw usageError('--devices and --fleet both give the simulated devices', 'use one of them');
  if (options.fleet !== undefined) return emu.syntheticFleet(options.fleet, chaosSeed);
  if (options.devices === undefined) return undefined;
  const text = await readStartFile(options.devices, '--devices', MAX_DEVICES_FILE, 'give a JSON array or CSV file of devices', signal);
  try {
    return emu.fleetOf(emu.parseDevices(text));
  } catch (error) {
    if (error instanceof emu.DevicesFileError) throw configError(`--devices ${options.devices}: ${error.message}`, error.hint);
    throw error;
  }
}

/** Why the emulator could not start, as the user's error where it is theirs to fix (a file, a port, a certificate). */
function startError(emu: EmulatorModule, error: unknown, options: ServeOptions): unknown {
  if (error instanceof emu.EmulatorConfigError) return configError(error.message, error.hint);
  const code = (error as NodeJS.ErrnoException).code;
  if (options.tlsCert !== undefined && /^ERR_(OSSL|SSL)/.test(code ?? '')) {
    return configError(`--tls-cert ${options.tlsCert} and --tls-key ${options.tlsKey} are not a usable PEM certificate and key (${(error as Error).message})`, 'give the server certificate and its private key, both PEM');
  }
  return error;
}

/**
 * Secrets are shown only for the built-in demo app: secrets the user configured may be real ones reused
 * for tests, and the user already has them.
 */
function banner(emulator: Emulator, options: ServeOptions, configured: boolean, devices: number | undefined): string {
  const first = emulator.apps.find((a) => !a.disabled) ?? emulator.apps[0];
  const secret = configured ? `<secret of ${first?.id}>` : (first?.secret ?? '');
  const appLines = emulator.apps.map(
    (a) => `  app ${a.id}${configured ? '' : ` (secret ${a.secret})`}${a.disabled ? ' - disabled, answers 21007' : ''}`,
  );
  const limits = [
    options.rate > 0 ? `${options.rate} requests/s per app` : 'no rate limit',
    options.maxClientIds > 0 ? `at most ${options.maxClientIds} client IDs per request` : 'no client ID limit',
    options.record ? `recording to ${options.record}` : 'not recording',
    ...(options.chaos ? [`CHAOS ${options.chaos} (seed ${options.chaosSeed ?? 1})`] : []),
    ...(devices !== undefined ? [`${devices.toLocaleString('en')} simulated devices`] : []),
  ];
  // On every address the URL is a loopback one (what pushctl takes as plain http): said so, beside the warning.
  const everywhere = emulator.host === '0.0.0.0' || emulator.host === '::';
  return [
    `Push Message Service emulator listening on ${everywhere ? `every address (--host ${options.host}), port ${emulator.port}; on this machine: ` : ''}${emulator.url}`,
    `  inbox: open ${emulator.url}/ in a browser to see every push as a phone would show it`,
    ...appLines,
    `  ${limits.join(', ')}`,
    'Try it:',
    `  PUSHCTL_APP_SECRET=${secret} pushctl send --base-url ${emulator.url} --app-id ${first?.id} --all --title Hello`,
    `  curl ${emulator.url}/v1/emulator/messages`,
    `  curl -N ${emulator.url}/v1/emulator/events      # every push, live`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

/**
 * What the emulator may keep within --keep-mb: three fifths of it, less the simulated devices, two thirds of
 * that for messages (device inboxes are read from them) and one third for the request log. The other two
 * fifths are the garbage collector's room: V8 lets garbage grow past the live data before collecting it.
 */
function keepBudget(keepMb: number, fleetBytes: number): { keepBytes: number; logBytes: number } {
  const kept = Math.max(1024 * 1024, (keepMb * 1024 * 1024 * 3) / 5 - fleetBytes);
  return { keepBytes: Math.floor((kept * 2) / 3), logBytes: Math.floor(kept / 3) };
}

/**
 * pushctl serve runs in a process of its own: its heap may grow only a fifth past the live data before a full
 * collection (V8's default lets it grow to several times that under a stream of requests), so its memory
 * follows --keep-mb. A NODE_OPTIONS that sets a heap flag is the user's choice and is left alone.
 *
 * The young generation too: from Node 22, V8 lets it grow to 128 MiB on a machine with much memory (Node 20
 * stops at 32 MiB), and under 1000-ID pushes it did, taking the emulator to 260 MiB against --keep-mb 96 (bench,
 * Node 24). Its size limit is fixed when the heap is made, but whether it grows is decided at each growth,
 * so it is kept from growing: 135-139 MiB, for some 5-10% fewer pushes a second. Node 20 keeps its default,
 * which the target already holds, rather than pay that.
 */
function boundHeapGrowth(nodeOptions: string | undefined, nodeVersion: string): void {
  if (/--(max-old-space-size|heap-growing-percent|max-semi-space-size|semi-space-growth-factor)/.test(nodeOptions ?? '')) return;
  setFlagsFromString('--heap-growing-percent=20');
  if (Number(/^v(\d+)/.exec(nodeVersion)?.[1] ?? 0) >= 22) setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * One line per request, written once per turn of the event loop rather than once per request: a burst of
 * requests costs one write to stderr, off the path of each answer.
 */
function batchedLines(write: (text: string) => void): { add: (line: string) => void; flush: () => void } {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    write(text);
  };
  return {
    add: (line) => {
      if (pending.push(line) === 1) setImmediate(flush);
    },
    flush,
  };
}

/** `--tls-cert` and `--tls-key` as PEM text; both or neither. */
async function readTlsFiles(options: ServeOptions, signal: AbortSignal): Promise<{ cert: string; key: string } | undefined> {
  if (options.tlsCert === undefined && options.tlsKey === undefined) return undefined;
  if (options.tlsCert === undefined || options.tlsKey === undefined) {
    throw usageError(`--${options.tlsCert === undefined ? 'tls-key' : 'tls-cert'} needs --${options.tlsCert === undefined ? 'tls-cert' : 'tls-key'}`, 'give both PEM files: --tls-cert server.pem --tls-key server-key.pem');
  }
  const read = (path: string, flag: string) => readStartFile(path, flag, MAX_PEM_FILE, `check the path given to ${flag}`, signal);
  return { cert: await read(options.tlsCert, '--tls-cert'), key: await read(options.tlsKey, '--tls-key') };
}

/** A million devices as CSV is some 70 MB: a cap well above, so /dev/zero stops long before memory does. */
const MAX_DEVICES_FILE = 256 * 1024 * 1024;
const MAX_PEM_FILE = 1024 * 1024;

/**
 * A file serve reads at start, as read-whole-file.ts reads (docs/behaviour.md#trust): capped, and a FIFO no one
 * writes waited for on the event loop, so Ctrl-C (`signal`) ends the wait — a read in the thread pool heard
 * no signal, and its blocked thread kept the process alive. A Ctrl-C is exit 130, nothing served.
 */
async function readStartFile(path: string, flag: string, maxBytes: number, hint: string, signal: AbortSignal): Promise<string> {
  try {
    return (await readWholeFile(path, { maxBytes, signal })).toString('utf8');
  } catch (error) {
    throw startFileError(error, `${flag} ${path}`, hint);
  }
}

/** The error of a start file that could not be read: an interrupt as such, anything else naming the file. */
function startFileError(error: unknown, what: string, hint: string): Error {
  if (error instanceof InputInterruptedError) return new CliError(`stopped while waiting for ${what}; nothing was served`, ExitCode.interrupted);
  const cause = error instanceof InputTooLargeError ? error.message : ((error as NodeJS.ErrnoException).code ?? String(error));
  return configError(`cannot read ${what} (${cause})`, hint);
}

export const command = runnable(serveOptionsSchema, serve, printServe);
