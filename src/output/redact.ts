import type { TextSink } from '../context.js';

/** Replaces every occurrence of each secret with `***`. Secrets shorter than 4 characters are still replaced. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

/**
 * The set of secrets this run knows about, and sinks that scrub them from everything written.
 * Every byte the CLI prints goes through these sinks, so a secret cannot leak through an error
 * message, a verbose dump or a stack trace, whichever code path produced it.
 */
export class SecretScrubber {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
  }

  scrub(text: string): string {
    return this.secrets.size === 0 ? text : redact(text, this.secrets);
  }

  /** The same for UTF-8 bytes; returns `bytes` itself when no secret occurs in them (the usual case). */
  scrubBytes(bytes: Buffer): Buffer {
    for (const secret of this.secrets) if (bytes.includes(secret, 0, 'utf8')) return Buffer.from(this.scrub(bytes.toString('utf8')), 'utf8');
    return bytes;
  }

  wrap(sink: TextSink | NodeJS.WriteStream): TextSink {
    const terminal = 'cursorTo' in sink && sink.isTTY ? sink : (sink as TextSink).terminal;
    return {
      write: (chunk: string) => sink.write(this.scrub(chunk)),
      ...(sink.isTTY !== undefined ? { isTTY: sink.isTTY } : {}),
      ...(terminal ? { terminal } : {}),
    };
  }
}

/** Told about every secret a command learns, so the output sinks can scrub it (SecretScrubber fits). */
export interface SecretSink {
  add(secret: string | undefined): void;
}
