// "The one command that finishes the job", printed wherever pushctl suggests a resend (the send summary,
// `runs show`, `--json` as resend_command, the action): `pushctl resend <run>`. It sends only the recipients
// that were certainly not sent; those in doubt (the service may have delivered to them) are counted apart,
// with the flag that includes them, so following the advice never sends anyone the message twice.
import { isAbsolute, resolve } from 'node:path';
import type { ResendAdvice } from '../../output/resend-advice.js';
import { shellQuote } from '../../shell-quote.js';

export type { ResendAdvice };


/** A resend command, without or with `--include-in-doubt`. */
export type ResendCommandFor = (includeInDoubt: boolean) => string;

/**
 * `pushctl resend <run>`: `run` is how the user names the run, its id when its journal is in the runs
 * directory, else the journal's path. `input`: the client-ID file of a run stopped before it read all of it,
 * which the resend needs again for the recipients the journal never saw (`-`: the same input on stdin).
 */
export const resendRun =
  (run: string, input?: string, settings: readonly string[] = []): ResendCommandFor =>
  (includeInDoubt) =>
    ['pushctl', 'resend', run, ...(input !== undefined ? ['--client-ids-file', input] : []), ...settings, ...(includeInDoubt ? ['--include-in-doubt'] : [])].map(shellQuote).join(' ');

/** Settings flags that take a value, and those that take none. */
const VALUE_FLAGS = new Set(['--app-id', '--region', '--base-url', '--profile', '--config', '-c', '--app-secret-file', '--timeout']);
const BARE_FLAGS = new Set(['--app-secret-stdin', '--insecure']);

/**
 * The settings flags of a run's command line, as typed: a resend needs them again, since it sends only where
 * the settings in force point (docs/behaviour.md#ownership), and a flag is what chose the run's destination.
 * Not `--proxy`: it chooses no destination, and its URL may carry a credential that a printed command must
 * never repeat (the environment or the config file carries a proxy to the resend).
 */
export function settingsFlags(argv: readonly string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (BARE_FLAGS.has(arg)) flags.push(arg);
    else if (VALUE_FLAGS.has(name) && arg.includes('=')) flags.push(name, arg.slice(name.length + 1));
    else if (VALUE_FLAGS.has(arg) && i + 1 < argv.length) flags.push(arg, argv[++i]!);
  }
  return flags;
}

/** Settings flags whose value is a file, named relative to the directory the command ran in. */
const PATH_FLAGS = new Set(['--config', '-c', '--app-secret-file']);

/**
 * The command line as a journal keeps it: each settings file it names resolved against `cwd`, so that the
 * resend command built from it (settingsFlags) works pasted from any directory, as a cron job's log is read
 * from a terminal elsewhere (docs/behaviour.md#resend). Everything else as typed; `-` (stdin) stays.
 */
export function argvWithAbsolutePaths(argv: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  const absolute = (value: string) => (value === '-' || value === '' || isAbsolute(value) ? value : resolve(cwd, value));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (PATH_FLAGS.has(name) && arg.includes('=')) out.push(`${name}=${absolute(arg.slice(name.length + 1))}`);
    else if (PATH_FLAGS.has(arg) && i + 1 < argv.length) out.push(arg, absolute(argv[++i]!));
    else out.push(arg);
  }
  return out;
}

/**
 * The flags a command line would give these settings with: the argv a run started by `pushctl mcp` (its
 * server's flags and the call's profile) is journaled with, so that settingsFlags reads them back and the
 * resend command it gives goes where the run went, as a CLI run's does.
 */
export function flagsOfSettings(settings: { appId?: string; region?: string; baseUrl?: string; profile?: string; config?: string; appSecretFile?: string; timeout?: string; insecure?: boolean }): string[] {
  const valued: [string, string | undefined][] = [
    ['--app-id', settings.appId],
    ['--region', settings.region],
    ['--base-url', settings.baseUrl],
    ['--profile', settings.profile],
    ['--config', settings.config],
    ['--app-secret-file', settings.appSecretFile],
    ['--timeout', settings.timeout],
  ];
  return [...valued.flatMap(([flag, value]) => (value === undefined ? [] : [flag, value])), ...(settings.insecure ? ['--insecure'] : [])];
}

/**
 * The settings flags a resend of the family needs again (the config file, the timeout), without
 * `--profile`: each target's profile is in its journal.
 */
export function familyFlags(argv: readonly string[]): string[] {
  const flags = settingsFlags(argv);
  const kept: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    if (flags[i] === '--profile') i += 1;
    else if (flags[i] === '--app-secret-stdin' || flags[i] === '--insecure') kept.push(flags[i]!);
    else kept.push(flags[i]!, flags[++i]!);
  }
  return kept;
}

/**
 * The settings flags of a resend of this one run: its own command line's, but for a target of several, whose
 * `--profile` names the list (a resend of one run takes one profile): that target's own profile instead.
 */
export function runFlags(header: { argv: readonly string[]; targets?: unknown; profile?: unknown }): string[] {
  if (typeof header.targets !== 'string') return settingsFlags(header.argv);
  return [...familyFlags(header.argv), ...(typeof header.profile === 'string' ? ['--profile', header.profile] : [])];
}

/**
 * The advice for what a run left. Counts are recipients, or batches for a run with no client IDs (one request
 * per language variant, `requests` of them).
 */
export function resendAdvice(commandFor: ResendCommandFor | undefined, left: { notSent: number; inDoubt: number }, audience?: string, requests?: number, dryRun = false): ResendAdvice | undefined {
  if (left.notSent === 0 && left.inDoubt === 0) return undefined;
  return {
    ...(dryRun ? { dryRun } : {}),
    // No journal and no report (`commandFor` undefined): nothing can name what is left to send again.
    ...(commandFor === undefined ? { untracked: true } : {}),
    ...(commandFor && left.notSent > 0 ? { command: commandFor(false) } : {}),
    ...(commandFor && left.inDoubt > 0 ? { includeInDoubtCommand: commandFor(true) } : {}),
    notSent: left.notSent,
    inDoubt: left.inDoubt,
    unit: audience ?? 'recipients',
    ...(audience !== undefined && requests !== undefined && requests > 1 ? { requests } : {}),
  };
}

/** The counts a resend would take: recipients for client IDs, else batches (the one batch of an audience). */
export function leftToSend(summary: { batches: { in_doubt: number; not_sent: number }; recipients: { in_doubt: number; not_sent: number } }, audience: string | undefined) {
  const counts = audience ? summary.batches : summary.recipients;
  return { notSent: counts.not_sent, inDoubt: counts.in_doubt };
}

/** Flags whose values choose recipients or the report, and so must not be repeated in a resend from a report. */
const DROP_WITH_VALUE = new Set(['--client-ids-file', '--report', '--journal', '--country', '--language', '--brand', '--model', '--os-version', '--app-version', '--once']);

/**
 * Without a journal (`--no-journal`) the report is all that is left: the user's own command line with its
 * recipients replaced by the report. A proxy URL with credentials is dropped (the resend must not need a
 * secret on its command line: set HTTPS_PROXY or the `proxy` config key instead).
 */
export const resendFromReport =
  (argv: readonly string[], reportPath: string): ResendCommandFor =>
  (includeInDoubt) => {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const name = word.split('=')[0]!;
    if (name === '--all' || name === '--no-journal' || name === '--include-in-doubt') continue;
    if (name === '--client-id') {
      // Variadic: its values run until the next option.
      if (!word.includes('=')) while (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (name === '--proxy') {
      const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : argv[++i];
      if (value !== undefined && !/\/\/[^/]*@/.test(value)) kept.push('--proxy', value);
      continue;
    }
    if (DROP_WITH_VALUE.has(name)) {
      if (!word.includes('=')) i++;
      continue;
    }
    kept.push(word);
  }
  const next = ['--report', reportPath.replace(/(\.json)?$/, '.retry.json')];
  return ['pushctl', ...kept, '--client-ids-file', reportPath, ...next, ...(includeInDoubt ? ['--include-in-doubt'] : [])].map(shellQuote).join(' ');
  };

/** The command that writes a run's report on demand (a failed send writes none by itself). */
export const reportCommand = (run: string) => ['pushctl', 'runs', 'show', run, '--report', 'report.json'].map(shellQuote).join(' ');
