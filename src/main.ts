// The CLI's entry: builds the context from the process, runs the command tree, and is the ONE place
// where errors become exit codes and one-line messages.
import { relative, resolve, sep } from 'node:path';
import type { Ctx } from './context.js';
import { CliError, ExitCode, FilePositionError } from './errors.js';
import { envelopeText } from './output/envelope.js';
import { escapeControl } from './output/escape-control.js';
import { SecretScrubber } from './output/redact.js';
import { annotation } from './output/workflow-commands.js';
import { runCli } from './cli.js';
import { stdioSink, stdoutFailure } from './stdio-sink.js';

// For bin/pushctl.cjs: whether the run's output has all left, so the process may end at once.
export { stdioFlushed } from './stdio-sink.js';
import { stopOnSignals } from './stop-on-signals.js';

export async function run(argv: readonly string[]): Promise<number> {
  const scrubber = new SecretScrubber();
  // The scrubbing sinks hold back a tail that could be the start of a secret; whatever is held goes out
  // before the process ends, however it ends.
  const exit = (code: number) => {
    scrubber.flush();
    process.exit(code);
  };
  const stderr = scrubber.wrap(stdioSink(2, () => {}));
  const signals = stopOnSignals((line) => stderr.write(line), exit);
  const ctx: Ctx = {
    // `pushctl ... | head` closes the pipe early: the run ends as it would have, without the rest.
    stdout: scrubber.wrap(stdioSink(1, () => process.exit(process.exitCode ?? 0))),
    stderr,
    // A getter: creating process.stdin costs milliseconds, and most commands never read it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    interrupt: signals.interrupt,
    stopNow: signals.stopNow,
  };
  // Warnings about secrets (one too short to mask) go to stderr, through the scrubber like everything else.
  scrubber.warn = (line) => ctx.stderr.write(`warning: ${line}\n`);
  // The secret the environment supplies is known before anything runs; settings add file and stdin ones.
  scrubber.add(ctx.env.PUSHCTL_APP_SECRET, 'the app secret (env PUSHCTL_APP_SECRET)');
  try {
    const result = await runCli(argv, ctx, scrubber);
    const code = 'outcome' in result ? result.outcome.exitCode : reportError(result.error, ctx, result);
    // Output that did not get where stdout goes is no success, whatever the command came to.
    const lost = code === ExitCode.ok ? stdoutFailure() : undefined;
    return lost ? reportError(lost, ctx, { verbose: false, json: false }) : code;
  } catch (error) {
    // A bug before any command ran: reported plainly, as no mode was chosen yet.
    return reportError(error, ctx, { verbose: false, json: false });
  } finally {
    scrubber.flush();
    signals.dispose();
  }
}

/** The one door errors leave by: a line on stderr, a hint, an annotation under GitHub Actions, the envelope. */
function reportError(error: unknown, ctx: Ctx, mode: { verbose: boolean; json: boolean }): number {
  const expected = error instanceof CliError;
  const exitCode = expected ? error.exitCode : ExitCode.internal;
  // An error may quote text from outside — a journal's run id, a file's key, a service's words — and is
  // printed as it arrived, never as terminal escapes that act (docs/behaviour.md#trust).
  const message = inertText(error instanceof Error ? error.message : String(error));
  const hint = expected ? (error.hint === undefined ? undefined : inertText(error.hint)) : 'this is a bug in pushctl; rerun with --verbose and report what it prints';
  ctx.stderr.write(`${expected ? 'error' : 'internal error'}: ${message}\n`);
  if (hint) ctx.stderr.write(`hint: ${hint}\n`);
  if (mode.verbose && error instanceof Error && error.stack) ctx.stderr.write(`${inertText(error.stack)}\n`);
  // Under GitHub Actions a file that does not parse is an annotation on the file, at the mistake.
  if (error instanceof FilePositionError && ctx.env.GITHUB_ACTIONS === 'true') {
    const name = relative(ctx.env.GITHUB_WORKSPACE ?? ctx.cwd, resolve(ctx.cwd, error.file)).split(sep).join('/');
    ctx.stderr.write(annotation('error', `${error.message}${error.hint ? ` (fix: ${error.hint})` : ''}`, { file: name, line: error.line, col: error.column, title: 'pushctl: json' }));
  }
  // --json promises one document on stdout, failures included, so scripts never parse an empty string.
  if (mode.json) ctx.stdout.write(envelopeText(exitCode, { error: { message, ...(hint ? { hint } : {}) } }));
  return exitCode;
}

/** Text with every control character but the line break shown as an escape: errors of several lines keep them. */
const inertText = (text: string): string => text.split('\n').map(escapeControl).join('\n');
