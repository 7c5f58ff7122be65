// The CLI's entry: builds the context from the process, runs the command tree, and is the ONE place
// where errors become exit codes and one-line messages.
import type { Ctx } from './context.js';
import { CliError, ExitCode } from './errors.js';
import { SecretScrubber } from './output/redact.js';
import { runCli } from './cli.js';

export interface RunIo {
  ctx?: Partial<Ctx>;
}

export async function run(argv: readonly string[], io: RunIo = {}): Promise<number> {
  const scrubber = new SecretScrubber();
  // The secret the environment supplies is known before anything runs; settings add file and stdin ones.
  scrubber.add(io.ctx?.env?.PUSHCTL_APP_SECRET ?? process.env.PUSHCTL_APP_SECRET);
  const interrupt = new AbortController();
  const ctx: Ctx = {
    stdout: scrubber.wrap(io.ctx?.stdout ?? process.stdout),
    stderr: scrubber.wrap(io.ctx?.stderr ?? process.stderr),
    stdin: io.ctx?.stdin ?? process.stdin,
    env: io.ctx?.env ?? process.env,
    cwd: io.ctx?.cwd ?? process.cwd(),
    interrupt: io.ctx?.interrupt ?? interrupt.signal,
  };
  const stopOnSignal = () => {
    // A second Ctrl-C means "now": skip the orderly stop.
    if (interrupt.signal.aborted) process.exit(130);
    ctx.stderr.write('\nstopping: no new requests; waiting for those in flight (Ctrl-C again to quit now)\n');
    interrupt.abort();
  };
  if (!io.ctx?.stdout) {
    // `pushctl ... | head` closes the pipe early; that is the reader's choice, not an error to report.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    });
  }
  if (!io.ctx?.interrupt) {
    process.on('SIGINT', stopOnSignal);
    process.on('SIGTERM', stopOnSignal);
  }
  try {
    return await runCli(argv, ctx, scrubber);
  } catch (error) {
    return reportError(error, ctx, argv.includes('--verbose'));
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
  }
}

function reportError(error: unknown, ctx: Ctx, verbose: boolean): number {
  if (error instanceof CliError) {
    ctx.stderr.write(`error: ${error.message}\n`);
    if (error.hint) ctx.stderr.write(`hint: ${error.hint}\n`);
    if (verbose && error.stack) ctx.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.stderr.write(`internal error: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) ctx.stderr.write(`${error.stack}\n`);
  else ctx.stderr.write('hint: this is a bug in pushctl; rerun with --verbose and report what it prints\n');
  return ExitCode.internal;
}
