import type { Readable } from 'node:stream';
import { invalidMessageError } from '../errors.js';
import { resendClientIdsFromReport, type DeliveryReport } from './report.js';

/** Unique client IDs in first-seen order, and how many repeats were dropped. */
export interface ClientIdList {
  ids: string[];
  duplicates: number;
  /** Set when the input was a `--report` file: `ids` are then its unknown and not_sent IDs. */
  fromReport?: boolean;
}

/**
 * Collects client IDs from any number of sources (`--client-id` values, then a file), trimming them,
 * skipping blanks and dropping repeats, so that every source follows the same rules.
 *
 * Repeats are found with an open-addressing table of indices into `ids` rather than a `Set`: for a million
 * IDs the Set costs about 25 MB more heap (and twice that while it grows), and the memory target is 200 MB.
 */
export class ClientIdCollector {
  private readonly ids: string[] = [];
  private table = new Int32Array(1024).fill(-1);
  private duplicates = 0;

  add(raw: string): void {
    const id = raw.trim();
    if (id === '') return;
    const mask = this.table.length - 1;
    let slot = hashString(id) & mask;
    for (let index = this.table[slot]!; index !== -1; index = this.table[slot]!) {
      if (this.ids[index] === id) {
        this.duplicates += 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.table[slot] = this.ids.length;
    this.ids.push(id);
    // Keep the table at most half full so probes stay short.
    if (this.ids.length * 2 > this.table.length) this.grow();
  }

  addAll(raws: Iterable<string>): this {
    for (const raw of raws) this.add(raw);
    return this;
  }

  result(): ClientIdList {
    return { ids: this.ids, duplicates: this.duplicates };
  }

  private grow(): void {
    const table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = table.length - 1;
    this.ids.forEach((id, index) => {
      let slot = hashString(id) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = index;
    });
    this.table = table;
  }
}

/** FNV-1a over UTF-16 code units: fast, and good enough spread for IDs that share long prefixes. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
/** No client ID is this long; a longer line means the file is not a list of IDs. */
const MAX_LINE_BYTES = 64 * 1024;

/**
 * Read one client ID per line from a stream (a file or stdin) without ever holding the input as one string.
 *
 * Lines are cut from the raw bytes rather than with readline: each ID then becomes a small string of its
 * own, instead of a slice that keeps its whole 64 KiB chunk alive, and there is no per-line promise. For a
 * 1,000,000-line file that is about 40% less heap, which matters for the 200 MB memory target. Cutting at
 * the newline byte never splits a UTF-8 character. CRLF and lone CR line ends and a byte-order mark are
 * handled like readline would.
 *
 * A `--report` file (JSON, starting with `{`) is accepted too, as SPEC section 5 promises: it yields the
 * IDs to send again, those under `unknown` and `not_sent`.
 */
export async function readClientIds(input: Readable, collector = new ClientIdCollector()): Promise<ClientIdList> {
  let carry: Buffer | undefined;
  let first = true;
  let report: Buffer[] | undefined;
  let sniffed = false;
  const addLine = (line: string) => {
    if (first) {
      line = line.replace(/^\uFEFF/, '');
      first = false;
    }
    if (line.includes('\r')) for (const part of line.split('\r')) collector.add(part);
    else collector.add(line);
  };
  for await (const piece of input as AsyncIterable<Buffer | string>) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    if (!sniffed) {
      const firstByte = chunk.toString('utf8', 0, 256).replace(/^\uFEFF/, '').trimStart();
      if (firstByte === '' && chunk.length < 256) {
        carry = carry ? Buffer.concat([carry, chunk]) : chunk;
        continue;
      }
      sniffed = true;
      if (firstByte.charCodeAt(0) === OPEN_BRACE) {
        report = carry ? [carry] : [];
        carry = undefined;
      }
    }
    if (report) {
      report.push(chunk);
      continue;
    }
    if (carry) {
      chunk = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      addLine(chunk.toString('utf8', start, end));
      start = end + 1;
    }
    // Copy the unfinished line so the chunk it came from can be freed.
    if (start < chunk.length) carry = Buffer.from(chunk.subarray(start));
    if (carry && carry.length > MAX_LINE_BYTES) {
      throw invalidMessageError(
        `A line of the client-ID input is longer than ${MAX_LINE_BYTES} bytes; expected one client ID per line.`,
      );
    }
  }
  if (report) return { ...collector.addAll(resendClientIdsFromReport(parseReport(Buffer.concat(report)))).result(), fromReport: true };
  if (carry) addLine(carry.toString('utf8'));
  return collector.result();
}

function parseReport(bytes: Buffer): Pick<DeliveryReport, 'unknown' | 'not_sent'> {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalidMessageError(
      `The client-ID input starts with "{" but is not valid JSON: ${(error as Error).message}`,
      'Give one client ID per line, or a report written by --report.',
    );
  }
  const sections = json as Partial<Record<'unknown' | 'not_sent', unknown>>;
  const valid = (section: unknown) =>
    Array.isArray(section) &&
    section.every((entry: { batch?: unknown; client_ids?: unknown }) =>
      typeof entry?.batch === 'number' && Array.isArray(entry.client_ids) && entry.client_ids.every((id) => typeof id === 'string'),
    );
  if (!valid(sections.unknown) || !valid(sections.not_sent)) {
    throw invalidMessageError('The client-ID input is JSON but not a pushctl report (no "unknown" and "not_sent" lists).');
  }
  return json as Pick<DeliveryReport, 'unknown' | 'not_sent'>;
}
