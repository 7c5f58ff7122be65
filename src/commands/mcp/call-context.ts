// The context one tool call runs in. A command would print to stdout, which the protocol owns, so a call's
// stdout is the server's stderr log; its stdin holds the call's message object, which is read as `-f -`
// reads a message file, so the object takes the same path through assembly and validation as a file.
import { Readable } from 'node:stream';
import type { Ctx, TextSink } from '../../context.js';
import { messageText } from './message-text.js';

export function callContext(ctx: Ctx, message?: object): Ctx {
  return {
    stdout: ctx.stderr,
    stderr: ctx.stderr,
    stdin: Readable.from(message === undefined ? [] : [messageText(message)]),
    env: ctx.env,
    cwd: ctx.cwd,
    interrupt: ctx.interrupt,
    ...(ctx.stopNow ? { stopNow: ctx.stopNow } : {}),
    ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    secretFromStdin: false,
  };
}

/** Captures what a printer writes, for a result's text: plain (no colour), whatever the terminal. */
export function captured(print: (io: { stdout: TextSink; stderr: TextSink }) => void): string {
  let text = '';
  const sink: TextSink = { write: (chunk: string) => (text += chunk) };
  print({ stdout: sink, stderr: sink });
  return text;
}

/** An environment in which output/ prints without colour. */
export const PLAIN_ENV = { NO_COLOR: '1' };
