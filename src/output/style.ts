// Colour decisions live here and nowhere else: colour only on a TTY, NO_COLOR and FORCE_COLOR honoured.
import type { TextSink } from '../context.js';

export interface Style {
  ok(text: string): string;
  error(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  code(text: string): string;
}

const plain: Style = { ok: (t) => t, error: (t) => t, warn: (t) => t, dim: (t) => t, bold: (t) => t, code: (t) => t };

/** Whether to colour text written to `sink` (https://no-color.org, FORCE_COLOR as chalk reads it). */
export function wantsColor(sink: TextSink, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return sink.isTTY === true && env.TERM !== 'dumb';
}

/** A style for one sink; chalk is loaded only when colour is actually wanted. */
export async function styleFor(sink: TextSink, env: Record<string, string | undefined>): Promise<Style> {
  if (!wantsColor(sink, env)) return plain;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return { ok: chalk.green, error: chalk.red, warn: chalk.yellow, dim: chalk.dim, bold: chalk.bold, code: chalk.cyan };
}

export const plainStyle = plain;
