import type { TextSink } from '../context.js';

/**
 * Secrets shorter than this are not masked: masking `ab` would replace those letters in every word printed,
 * which hides more than it protects and tells a reader the secret anyway. They are refused by `init` and
 * warned about everywhere else.
 */
export const MIN_SECRET_LENGTH = 3;

/**
 * The local emulator's published demo credential (`pushctl serve` with no apps: `demo-app` / `demo-secret`,
 * printed by `serve` and `--help`). It is in the README for anyone to read, so masking it protects nothing
 * and turns the commands pushctl prints (`Try it: PUSHCTL_APP_SECRET=demo-secret pushctl send …`) into ones
 * that cannot be pasted. Kept as a literal rather than imported from the emulator so the scrubber, which
 * every command loads, does not load the emulator.
 */
export const PUBLIC_DEMO_SECRET = 'demo-secret';

/** Each maximal stretch of `text` covered by some occurrence of some secret, as [start, end) pairs in order. */
function maskedRuns(text: string, secrets: Iterable<string>): [number, number][] {
  const ranges: [number, number][] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    // Every occurrence, overlapping ones included: `abab` in `ababab` covers all six characters.
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) ranges.push([at, at + secret.length]);
  }
  if (ranges.length === 0) return ranges;
  ranges.sort((a, b) => a[0] - b[0]);
  // Overlapping or touching occurrences become one run, printed as one `***`: with the secrets `abc` and
  // `abcdef`, `abcdef` is one run, never `***def`.
  const runs: [number, number][] = [ranges[0]!];
  for (const [start, end] of ranges.slice(1)) {
    const last = runs[runs.length - 1]!;
    if (start <= last[1]) last[1] = Math.max(last[1], end);
    else runs.push([start, end]);
  }
  return runs;
}

function applyRuns(text: string, runs: readonly (readonly [number, number])[]): string {
  let out = '';
  let from = 0;
  for (const [start, end] of runs) {
    out += `${text.slice(from, start)}***`;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Replaces every character covered by an occurrence of any secret with `***` (one per maximal covered
 * stretch), so that no secret, and no part of one, survives even when secrets overlap or one begins another.
 */
export function redact(text: string, secrets: Iterable<string>): string {
  return applyRuns(text, maskedRuns(text, secrets));
}

/** A scrubbing stream: text in, scrubbed text out, holding back only what could be the start of a secret. */
export interface ScrubStream {
  /** The scrubbed text that is final so far (possibly empty). */
  write(chunk: string): string;
  /** Everything still held back, scrubbed: call once at the end. */
  end(): string;
}

/**
 * A secret as pushctl's own writers may spell it: as typed; inside a JSON string (journals, `--json`, reports,
 * a --verbose dump of an answer that echoes it), where a quote, a backslash or a control character is escaped;
 * and percent-encoded, as in a URL. Each is masked, or a secret holding such a character shows in those forms.
 */
function spellings(secret: string): Set<string> {
  return new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
}

/**
 * The set of secrets this run knows about, and sinks that scrub them from everything written.
 * Every byte the CLI prints goes through these sinks, so a secret cannot leak through an error
 * message, a verbose dump or a stack trace, whichever code path produced it.
 */
export class SecretScrubber implements SecretSink {
  private readonly secrets = new Set<string>();
  /** Every character of every secret: text that ends in none of them cannot end in the start of one. */
  private readonly secretChars = new Set<string>();
  private longest = 0;
  private readonly warned = new Set<string>();
  private readonly open = new Set<{ flush(): void }>();

  /** `warn` receives one-line warnings about secrets (too short to mask); main.ts points it at stderr. */
  constructor(public warn: (line: string) => void = () => {}) {}

  /** `what` names the secret in a warning, e.g. `PUSHCTL_APP_SECRET` or `the proxy password`. */
  add(secret: string | undefined, what = 'a secret'): void {
    if (!secret || this.secrets.has(secret) || secret === PUBLIC_DEMO_SECRET) return;
    if (secret.length < MIN_SECRET_LENGTH) {
      if (!this.warned.has(secret)) {
        this.warned.add(secret);
        this.warn(
          `${what} is only ${secret.length} character${secret.length === 1 ? '' : 's'} long: too short to mask in output (it would hide those letters everywhere), so it is shown as it is; a real credential is longer`,
        );
      }
      return;
    }
    for (const spelling of spellings(secret)) {
      this.secrets.add(spelling);
      for (const ch of spelling) this.secretChars.add(ch);
      this.longest = Math.max(this.longest, spelling.length);
    }
  }

  scrub(text: string): string {
    return this.secrets.size === 0 ? text : redact(text, this.secrets);
  }

  /** The same for UTF-8 bytes; returns `bytes` itself when no secret occurs in them (the usual case). */
  scrubBytes(bytes: Buffer): Buffer {
    for (const secret of this.secrets) if (bytes.includes(secret, 0, 'utf8')) return Buffer.from(this.scrub(bytes.toString('utf8')), 'utf8');
    return bytes;
  }

  /**
   * Where a possible secret starts at the end of `text`: the first position whose rest is a proper prefix
   * of some secret (it may go on in the next chunk), or `text.length` when none.
   */
  private heldFrom(text: string): number {
    if (text === '' || !this.secretChars.has(text[text.length - 1]!)) return text.length;
    for (let at = Math.max(0, text.length - this.longest + 1); at < text.length; at++) {
      const rest = text.slice(at);
      for (const secret of this.secrets) if (secret.length > rest.length && secret.startsWith(rest)) return at;
    }
    return text.length;
  }

  /**
   * A stream that scrubs text arriving in pieces: a secret split across two writes is caught, because the
   * tail that could be the start of a secret is held until the next write or the end. Only such a tail is
   * held; text that ends in a character no secret contains (a line break, in practice) goes out whole, so
   * progress lines and prompts appear at once. The output is exactly `scrub()` of the whole text.
   */
  stream(): ScrubStream {
    let held = '';
    return {
      write: (chunk: string) => {
        // With no secrets nothing is held (heldFrom) and nothing masked: the text goes out whole.
        const text = held + chunk;
        let cut = this.heldFrom(text);
        const runs = maskedRuns(text, this.secrets);
        // A masked run reaching the cut could join a secret that continues in the next chunk (one `***`, as
        // scrubbing the whole text would print): hold it back too, whole.
        const final = runs.filter(([, end]) => end < cut);
        const reaching = runs.find(([start, end]) => start < cut && end >= cut);
        if (reaching) cut = reaching[0];
        held = text.slice(cut);
        return applyRuns(text.slice(0, cut), final);
      },
      end: () => {
        const out = this.scrub(held);
        held = '';
        return out;
      },
    };
  }

  /** Writes whatever the wrapped sinks still hold (a possible start of a secret that never went on). */
  flush(): void {
    for (const sink of this.open) sink.flush();
  }

  wrap(sink: TextSink | NodeJS.WriteStream): TextSink {
    const terminal = 'cursorTo' in sink && sink.isTTY ? sink : (sink as TextSink).terminal;
    const stream = this.stream();
    const write = (text: string) => (text === '' ? true : sink.write(text));
    this.open.add({ flush: () => write(stream.end()) });
    return {
      write: (chunk: string) => write(stream.write(chunk)),
      ...(sink.isTTY !== undefined ? { isTTY: sink.isTTY } : {}),
      ...(terminal ? { terminal } : {}),
    };
  }
}

/** Told about every secret a command learns, so the output sinks can scrub it (SecretScrubber fits). */
export interface SecretSink {
  /** `what` names the secret in a warning when it cannot be masked (too short). */
  add(secret: string | undefined, what?: string): void;
  /** A one-line warning about how a secret was given (e.g. in a command-line flag). Optional for callers' fakes. */
  warn?(line: string): void;
}
