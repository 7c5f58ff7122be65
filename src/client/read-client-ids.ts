import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Unique client IDs in first-seen order, and how many repeats were dropped. */
export interface ClientIdList {
  ids: string[];
  duplicates: number;
}

/**
 * Collects client IDs from any number of sources (`--client-id` values, then a file), trimming them,
 * skipping blanks and dropping repeats, so that every source follows the same rules.
 */
export class ClientIdCollector {
  private readonly seen = new Set<string>();
  private readonly ids: string[] = [];
  private duplicates = 0;

  add(raw: string): void {
    const id = raw.trim();
    if (id === '') return;
    if (this.seen.has(id)) {
      this.duplicates += 1;
      return;
    }
    this.seen.add(id);
    this.ids.push(id);
  }

  addAll(raws: Iterable<string>): this {
    for (const raw of raws) this.add(raw);
    return this;
  }

  result(): ClientIdList {
    return { ids: this.ids, duplicates: this.duplicates };
  }
}

/**
 * Read one client ID per line from a stream (a file or stdin). Lines are streamed with readline, so a file
 * of millions of lines is never held as one string. CRLF line ends and a UTF-8 byte-order mark are handled.
 */
export async function readClientIds(input: Readable, collector = new ClientIdCollector()): Promise<ClientIdList> {
  input.setEncoding('utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  for await (const line of lines) {
    collector.add(first ? line.replace(/^\uFEFF/, '') : line);
    first = false;
  }
  return collector.result();
}
