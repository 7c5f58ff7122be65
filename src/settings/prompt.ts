import { createInterface } from 'node:readline';
import { Writable, type Readable } from 'node:stream';
import type { TextSink } from '../context.js';
import { CliError, ExitCode } from '../errors.js';

/** Asks questions on a terminal: prompts go to stderr so stdout keeps only the result. */
export interface Prompter {
  ask(question: string, defaultAnswer?: string): Promise<string>;
  /** Like ask, but the typed text is not echoed. */
  askHidden(question: string): Promise<string>;
  close(): void;
}

/**
 * A prompter over readline. Lines are read through readline's async iterator, which buffers them, so
 * piped answers that arrive in one chunk are not lost between questions. Hidden input works by muting
 * the output stream while the line is typed: readline's echo goes nowhere.
 */
export function createPrompter(io: { stdin: Readable & { isTTY?: boolean }; stderr: TextSink; interrupt?: AbortSignal }): Prompter {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      if (!muted) io.stderr.write(chunk.toString());
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: io.stdin.isTTY === true });
  rl.setPrompt('');
  // Without a listener, Ctrl-C in raw mode would only pause the input and leave us waiting forever.
  rl.on('SIGINT', () => {
    io.stderr.write('\n');
    rl.close();
  });
  const onAbort = () => rl.close();
  io.interrupt?.addEventListener('abort', onAbort, { once: true });
  const lines = rl[Symbol.asyncIterator]();

  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    // Ctrl-C or the end of input: the user stopped; the shell's convention for an interrupt is 130.
    if (done) throw new CliError('cancelled before all questions were answered; nothing was written', ExitCode.interrupted, 'run pushctl init again, or pass --app-id and --yes to skip the questions');
    return String(value);
  };

  return {
    async ask(question, defaultAnswer) {
      io.stderr.write(defaultAnswer ? `${question} [${defaultAnswer}]: ` : `${question}: `);
      const answer = (await next()).trim();
      return answer === '' ? (defaultAnswer ?? '') : answer;
    },
    async askHidden(question) {
      io.stderr.write(`${question} (input hidden): `);
      muted = true;
      try {
        return await next();
      } finally {
        muted = false;
        io.stderr.write('\n');
      }
    },
    close() {
      io.interrupt?.removeEventListener('abort', onAbort);
      rl.close();
    },
  };
}
