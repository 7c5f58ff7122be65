import type { Readable } from 'node:stream';

/** Where text goes; a subset of a Node stream so tests can capture it. */
export interface TextSink {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /**
   * The terminal stream underneath, for the spinner alone: it moves the cursor and redraws its own text,
   * which never holds data of ours, so it may bypass the secret filter.
   */
  terminal?: NodeJS.WriteStream;
}

/**
 * Everything a command needs from the outside world, passed in rather than read from `process`
 * so commands run the same in the CLI, in tests and from the library.
 */
export interface Ctx {
  stdout: TextSink;
  stderr: TextSink;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Aborts when the user asks to stop (Ctrl-C, SIGTERM, SIGHUP): no new work, finish what is in flight. */
  interrupt: AbortSignal;
  /**
   * Aborts on a second signal: stop now, cutting requests in flight (they become unknown), yet still close
   * the journal and write the report. Optional so library callers need not supply it.
   */
  stopNow?: AbortSignal;
  /**
   * False in the GitHub Action: a JavaScript config file is refused rather than loaded, since a pull request
   * can change one and loading it runs its code (docs/behaviour.md#trust). Default true.
   */
  runJavaScriptConfig?: boolean;
  /**
   * False in the MCP server: its stdin carries the protocol, so `--app-secret-stdin` is refused there and a
   * missing secret's hint must not offer it. Default true.
   */
  secretFromStdin?: boolean;
  /**
   * Told after each batch of a send how far it got, where no terminal shows a progress line: the MCP server
   * turns it into progress notifications, which keep a client waiting on a long send (docs/behaviour.md#mcp).
   */
  onProgress?: (progress: { batchesDone: number; batchesTotal: number; planComplete: boolean; line: string }) => void;
}

/**
 * `ctx` with some fields replaced or added. Not `{ ...ctx, ...extra }`: a spread reads every getter, and the
 * CLI's `stdin` is one because creating process.stdin costs milliseconds (a fifth of a validate's start-up
 * on Node 20) that a run which never reads it should not pay.
 */
export function extendCtx<C extends Ctx, E extends object>(ctx: C, extra: E): Omit<C, keyof E> & E {
  return Object.defineProperties({} as Omit<C, keyof E> & E, {
    ...Object.getOwnPropertyDescriptors(ctx),
    ...Object.getOwnPropertyDescriptors(extra),
  });
}

/** `ctx` with another interrupt signal (its getters kept, see extendCtx). */
export function withInterrupt(ctx: Ctx, interrupt: AbortSignal): Ctx {
  return extendCtx(ctx, { interrupt });
}
