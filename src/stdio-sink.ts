// The CLI's stdout and stderr. Node builds process.stdout and process.stderr on first use, and for a pipe
// or a file that loads its whole stream machinery (node:stream, node:net): milliseconds of a run that
// prints a few lines, about a fifth of the start-up budget of docs/behaviour.md#performance. A pipe or a
// file is written with writeSync, as Node itself writes a file; a terminal (or /dev/null) keeps Node's
// stream, which the spinner needs for its cursor.
import { fstatSync, writeSync } from 'node:fs';
import type { TextSink } from './context.js';
import { CliError, ExitCode } from './errors.js';

/** "file too large" of Node's "EFBIG: file too large, write". */
const errorText = (error: unknown): string => (error instanceof Error ? error.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '') : String(error));

type StdioFd = 1 | 2;

/**
 * Node's own stdout and stderr streams, by descriptor, as far as the CLI has used them: writes to a pipe may
 * still be queued. Kept by descriptor, since reading process.stdout, even to ask whether it was used, is
 * what builds it.
 */
const nodeStreamsUsed = new Map<StdioFd, NodeJS.WriteStream>();

/**
 * Whether everything the CLI wrote has left the process: true unless one of Node's streams it used (a
 * terminal, a pipe another process made non-blocking, `pushctl mcp`'s protocol) still holds queued output.
 */
export function stdioFlushed(): boolean {
  return [...nodeStreamsUsed.values()].every((stream) => stream.writableLength === 0);
}

/** Node's stdout stream, for a command that needs a stream (the MCP transport), counted by stdioFlushed. */
export function nodeStdout(): NodeJS.WriteStream {
  nodeStreamsUsed.set(1, process.stdout);
  return process.stdout;
}

/**
 * The sink of `fd`. `onClosed` is called when the reader has gone (EPIPE: `pushctl ... | head`); that is
 * the reader's choice, not an error to report.
 */
export function stdioSink(fd: StdioFd, onClosed: () => void): TextSink | NodeJS.WriteStream {
  if (!writesDirectly(fd)) return nodeStream(fd, onClosed);
  let stream: NodeJS.WriteStream | undefined;
  let failed = false;
  return {
    write(chunk: string) {
      if (stream) return stream.write(chunk);
      // What follows a failed write (the error's own lines, the --json envelope) cannot get there either.
      if (failed) return false;
      let rest = Buffer.from(chunk, 'utf8');
      while (rest.length > 0) {
        try {
          rest = rest.subarray(writeSync(fd, rest));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') {
            // A descriptor another process made non-blocking, and full: Node's stream waits for it instead.
            stream = nodeStream(fd, onClosed);
            return stream.write(rest);
          }
          if (code === 'EPIPE') return onClosed();
          // A failed diagnostic (the terminal gone after a SIGHUP) must not end the run before its journal
          // is closed and its report written.
          if (fd === 2) return false;
          // A full disk or a size limit under `> file`: the user's to fix, said as such, not as a bug.
          failed = true;
          throw stdoutFailed(error);
        }
      }
      return true;
    },
  };
}

function stdoutFailed(error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  return new CliError(`could not write the output to stdout (${code ?? 'error'}: ${errorText(error)})`, ExitCode.config, 'make room for it, or send it elsewhere');
}

/**
 * How writing stdout through Node's stream failed, if it did (a device that refuses writes, as /dev/full):
 * the stream knows at once, but says so on a later tick, after the run has ended. A reader gone is none.
 */
export function stdoutFailure(): CliError | undefined {
  const error = nodeStreamsUsed.get(1)?.errored as NodeJS.ErrnoException | null | undefined;
  return error && error.code !== 'EPIPE' ? stdoutFailed(error) : undefined;
}

/** A pipe, a socket or a regular file: anything but a character device (a terminal, /dev/null). */
function writesDirectly(fd: StdioFd): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false;
  }
}

function nodeStream(fd: StdioFd, onClosed: () => void): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  nodeStreamsUsed.set(fd, stream);
  // Any other failure of stdout is told by stdoutFailure when the run ends, not thrown from here as a crash.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') onClosed();
  });
  return stream;
}
