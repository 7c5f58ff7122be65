import { flagAndValue } from '../shell-quote.js';
import type { Readable } from 'node:stream';
import { ClientIdError, invalidMessageError, usageError } from '../errors.js';
import { ClientIdCollector, type ClientIdStore } from '../client/client-id-store.js';
import { ReportReader } from './read-report.js';
import { looksLikeJournal, readJournal } from '../journal/reader.js';
import { otherEncoding } from '../message/text-encoding.js';
import { CsvClientIds, isClientIdCsvHeader } from './csv-client-ids.js';
import type { RecipientLanguages } from './recipient-languages.js';
import type { BatchStatus } from '../client/batch-result.js';

export { ClientIdCollector, ClientIdStore } from '../client/client-id-store.js';
export { ClientIdError };

/** Unique client IDs in first-seen order, and how many repeats were dropped. */
export interface ClientIdList {
  ids: ClientIdStore;
  duplicates: number;
  /**
   * Set when the input was a `--report` file or a run journal: `ids` are then its not_sent IDs, and its
   * in-doubt ones too with `includeInDoubt`.
   */
  fromReport?: boolean;
  /** From a report or journal: the in-doubt IDs left out, because `includeInDoubt` was not set. */
  inDoubtLeftOut?: number;
  /** A CSV with a `language` column: each ID's language, by position (docs/behaviour.md#variants). */
  languages?: RecipientLanguages;
}

export interface ReadClientIdsOptions {
  /** From a report or a journal, take the in-doubt IDs too (they may already have the message). */
  includeInDoubt?: boolean;
  /**
   * Called after each piece of a list of IDs (never a report or a journal, which are read whole) has gone
   * into the collector: a plan can then grow while the rest is read. Reading waits for the promise it returns.
   */
  onLines?: () => Promise<void> | undefined | void;
  /** Filled with each ID's language when the input is a CSV with a `language` column. */
  languages?: RecipientLanguages;
  /**
   * For a run journal or a report (which names its run): each client ID's newest word among the runs that resent that run since (`laterWords`
   * of journal/read-run.ts), which replaces the journal's own, as a resend reads a run's family.
   */
  laterWords?: (runId: string) => ReadonlyMap<string, BatchStatus>;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
/** No client ID is this long; a longer line means the file is not a list of IDs. */
const MAX_LINE_BYTES = 64 * 1024;

/**
 * Read one client ID per line from a stream (a file or stdin) without ever holding the input as one string.
 *
 * Lines are cut from the raw bytes rather than with readline and handed to the collector as bytes: a plain
 * ASCII ID goes into its store without ever becoming a string, and there is no per-line promise. Cutting at
 * the newline byte never splits a UTF-8 character. CRLF and lone CR line ends and a byte-order mark are
 * handled like readline would (the collector's trim removes a BOM).
 *
 * A `--report` file (JSON, starting with `{`) is accepted too, as docs/behaviour.md#message-input promises: it yields the
 * IDs to send again, those under `in_doubt` and `not_sent`.
 */
export async function readClientIds(input: Readable, collector = new ClientIdCollector(), options: ReadClientIdsOptions = {}): Promise<ClientIdList> {
  const lines = new LineCounter(collector);
  try {
    return await readLines(input, collector, lines, options);
  } catch (error) {
    if (!(error instanceof ClientIdError)) throw error;
    const where = lines.report ? 'in the report' : `at line ${lines.line}${error.byte !== undefined ? `, byte ${error.byte + 1}` : ''} of the client-ID input`;
    throw invalidMessageError(`${error.message} ${where}`, 'client IDs are printable text, one per line; check the file given to --client-ids-file');
  }
}

/** Hands lines to the collector and counts them, so an error can name its line. */
class LineCounter {
  /** 1-based number of the line being added. */
  line = 0;
  report = false;
  constructor(readonly collector: ClientIdCollector) {}

  add(bytes: Buffer, start: number, end: number): void {
    this.line++;
    if (end - start > MAX_LINE_BYTES) throw lineTooLong();
    this.collector.addUtf8(bytes, start, end);
  }
}

/** How the input is read, once its start has said what it is. */
type InputKind =
  | { kind: 'lines'; carry: Buffer | undefined }
  // A run journal is kept whole: which of its IDs are left is known only after its last outcome record.
  | { kind: 'journal'; parts: Buffer[] }
  | { kind: 'report'; reader: ReportReader }
  // A CSV whose header names a client_id column (docs/behaviour.md#variants): read by csv-parse as it arrives.
  | { kind: 'csv'; reader: CsvClientIds };

async function readLines(input: Readable, collector: ClientIdCollector, lines: LineCounter, options: ReadClientIdsOptions): Promise<ClientIdList> {
  let kind: InputKind | undefined;
  // What was read before the input's kind was known: its first line, at least.
  let head: Buffer | undefined;
  for await (const piece of input as AsyncIterable<Buffer | string>) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    if (!kind) {
      head = head ? Buffer.concat([head, chunk]) : chunk;
      kind = sniff(head, false, collector, lines, options);
      if (!kind) continue;
      chunk = head;
      head = undefined;
    }
    if (kind.kind === 'journal') kind.parts.push(chunk);
    else if (kind.kind === 'report') kind.reader.push(chunk);
    else {
      if (kind.kind === 'csv') kind.reader.push(chunk);
      else kind.carry = addPiece(lines, chunk, kind.carry);
      const held = options.onLines?.();
      if (held) await held;
    }
  }
  // An input that ended within its first line: what it is, is decided on what there is.
  if (!kind && head) {
    kind = sniff(head, true, collector, lines, options)!;
    if (kind.kind === 'lines') kind.carry = head;
    else if (kind.kind === 'journal') kind.parts.push(head);
    else kind.reader.push(head);
  }
  return finishInput(kind, collector, lines, options);
}

/** What the input is, from everything read so far; undefined while its first line is still coming. */
function sniff(head: Buffer, ended: boolean, collector: ClientIdCollector, lines: LineCounter, options: ReadClientIdsOptions): InputKind | undefined {
  const start = head.toString('utf8', 0, 256).replace(/^\uFEFF/, '').trimStart();
  if (!ended && start === '' && head.length < 256) return undefined;
  // A CSV header is told by its whole first line.
  if (!ended && head.indexOf(NEWLINE) === -1 && head.length < MAX_LINE_BYTES) return undefined;
  refuseOtherEncoding(head);
  if (looksLikeJournal(start)) {
    lines.report = true;
    return { kind: 'journal', parts: [] };
  }
  if (start.charCodeAt(0) === OPEN_BRACKET) {
    throw invalidMessageError(
      'the client-ID input looks like a JSON array; it takes one client ID per line',
      `convert it with: jq -r '.[]' ids.json > ids.txt, or put the IDs in the message file's "condition": {"type": 2, "client_ids": [...]}`,
    );
  }
  if (start.charCodeAt(0) === OPEN_BRACE) {
    lines.report = true;
    return { kind: 'report', reader: new ReportReader(collector, options.includeInDoubt === true, options.laterWords) };
  }
  if (isClientIdCsvHeader(firstLineOf(head))) return { kind: 'csv', reader: new CsvClientIds(collector, options.languages) };
  refuseCsv(start);
  return { kind: 'lines', carry: undefined };
}

function finishInput(kind: InputKind | undefined, collector: ClientIdCollector, lines: LineCounter, options: ReadClientIdsOptions): ClientIdList {
  switch (kind?.kind) {
    case undefined:
      return collector.result();
    case 'csv':
      kind.reader.finish();
      return { ...collector.result(), ...(kind.reader.hasLanguage && options.languages ? { languages: options.languages } : {}) };
    case 'journal':
      return readJournalIds(Buffer.concat(kind.parts).toString('utf8'), collector, options.includeInDoubt === true, options.laterWords);
    case 'report':
      kind.reader.finish();
      return { ...collector.result(), fromReport: true, ...(kind.reader.inDoubtLeftOut > 0 ? { inDoubtLeftOut: kind.reader.inDoubtLeftOut } : {}) };
    case 'lines':
      if (kind.carry) addLine(lines, kind.carry, 0, kind.carry.length, kind.carry.indexOf(CR));
      return collector.result();
  }
}

/** Adds the lines a piece of a plain list completes; returns the unfinished line it ends with, if any. */
function addPiece(lines: LineCounter, chunk: Buffer, carry: Buffer | undefined): Buffer | undefined {
  let start = 0;
  if (carry) {
    const newline = chunk.indexOf(NEWLINE);
    if (newline === -1) {
      const longer = Buffer.concat([carry, chunk]);
      checkLineLength(longer);
      return longer;
    }
    // Only the line that was cut in two is joined, not the whole chunk.
    const line = Buffer.concat([carry, chunk.subarray(0, newline)]);
    addLine(lines, line, 0, line.length, line.indexOf(CR));
    start = newline + 1;
  }
  start = addCompleteLines(lines, chunk, start);
  if (start >= chunk.length) return undefined;
  // Copy the unfinished line so the chunk it came from can be freed.
  const rest = Buffer.from(chunk.subarray(start));
  checkLineLength(rest);
  return rest;
}

/**
 * A run journal (docs/behaviour.md#resend): its not_sent IDs, and with `includeInDoubt` its in-doubt ones first, as from a
 * report. A journal cut short while its plan was written is refused: it does not know every recipient.
 */
function readJournalIds(text: string, collector: ClientIdCollector, includeInDoubt: boolean, laterWords: ReadClientIdsOptions['laterWords']): ClientIdList {
  const run = readJournal(text);
  if (!run.header) throw invalidMessageError('the client-ID input looks like a run journal but has no header record', 'give the journal as pushctl wrote it, or one client ID per line');
  if (run.incomplete) {
    const sent = run.results.some((r) => r.attempts > 0);
    throw usageError(
      `the client-ID input is an incomplete run journal and cannot be a resend source: ${run.incomplete.reason}`,
      sent
        ? `it sent some of its input before it stopped: finish it with pushctl resend <the journal> ${run.header.input !== undefined ? flagAndValue('--client-ids-file', run.header.input) : '--client-ids-file <its client-ID file>'}`
        : 'nothing was sent before its plan was complete: send again from the original input',
    );
  }
  // What the run left, each ID under its newest word: a resend of the run since may have sent it.
  const later = laterWords?.(run.header.run_id);
  const left: Record<'in_doubt' | 'not_sent', string[]> = { in_doubt: [], not_sent: [] };
  for (const status of ['in_doubt', 'not_sent'] as const) {
    for (const r of run.results.filter((result) => result.status === status)) {
      for (const id of r.clientIds) {
        const word = later?.get(id) ?? status;
        if (word === 'in_doubt' || word === 'not_sent') left[word].push(id);
      }
    }
  }
  if (includeInDoubt) collector.addAll(left.in_doubt);
  collector.addAll(left.not_sent);
  const inDoubt = includeInDoubt ? 0 : left.in_doubt.length;
  return { ...collector.result(), fromReport: true, ...(inDoubt > 0 ? { inDoubtLeftOut: inDoubt } : {}) };
}

/** The unfinished line is checked as it grows, so a file with no newline is never held whole. */
function checkLineLength(carry: Buffer): void {
  if (carry.length > MAX_LINE_BYTES) throw lineTooLong();
}

const lineTooLong = () =>
  invalidMessageError(`a line of the client-ID input is longer than ${MAX_LINE_BYTES} bytes; it takes one client ID per line`, 'check the file given to --client-ids-file: a client ID is far shorter');

/** Add every newline-terminated line of `chunk` from `start`; returns where the unfinished rest begins. */
function addCompleteLines(lines: LineCounter, chunk: Buffer, start: number): number {
  // The next CR is found once and kept until passed, so a chunk is scanned for CRs only once in all.
  let cr = chunk.indexOf(CR, start);
  for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
    if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
    cr = addLine(lines, chunk, start, end, cr);
    start = end + 1;
  }
  return start;
}

/**
 * Add the line `bytes[start, end)`, split at lone CRs; `cr` is the first CR at or after `start` (-1: none).
 * Returns the first CR after the line, or -1.
 */
function addLine(lines: LineCounter, bytes: Buffer, start: number, end: number, cr: number): number {
  while (cr !== -1 && cr < end) {
    lines.add(bytes, start, cr);
    start = cr + 1;
    cr = bytes.indexOf(CR, start);
  }
  lines.add(bytes, start, end);
  return cr;
}

/** UTF-16 (a PowerShell `>` redirect) is not invalid bytes on some line: it is another encoding, named as such. */
function refuseOtherEncoding(start: Buffer): void {
  const other = otherEncoding(start);
  if (!other) return;
  throw invalidMessageError(
    `the client-ID input is ${other.name} (${other.evidence}), not UTF-8`,
    `save the file given to --client-ids-file as UTF-8 (e.g. iconv -f ${other.name.replace(' ', '')} -t UTF-8), one client ID per line`,
  );
}

/** The first line of the input (up to the longest a line may be), for the CSV header test. */
function firstLineOf(start: Buffer): string {
  const newline = start.indexOf(NEWLINE);
  return start.toString('utf8', 0, Math.min(newline === -1 ? start.length : newline, MAX_LINE_BYTES)).replace(/^\uFEFF/, '');
}

/** A first column that names client IDs: the header of a CSV export. */
const ID_HEADER = /^\s*"?\s*(client[ _-]?ids?|clientids?|ids?|tokens?|device[ _-]?(ids?|tokens?)?|reg(istration)?[ _-]?ids?)\s*"?\s*$/i;

/**
 * A spreadsheet saved in a locale whose decimal mark is a comma writes its CSV with semicolons (or tabs): a
 * header whose first field names client IDs is such a file, whose lines would each go out as one client ID
 * that reaches no one, the header among them. A list of IDs that merely hold a semicolon has no such header.
 */
function refuseOtherSeparator(line: string): void {
  const separator = [';', '\t'].find((s) => line.includes(s) && ID_HEADER.test(line.split(s, 1)[0]!));
  if (separator === undefined) return;
  const name = separator === ';' ? 'semicolons' : 'tabs';
  const shown = JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
  throw invalidMessageError(
    `the client-ID input looks like CSV separated by ${name}: line 1 ${shown} is a header; it takes one client ID per line, or a CSV with commas`,
    `save it as CSV with commas and a client_id column (a language column chooses each ID's variant), or keep the first column without the header: ${separator === ';' ? "cut -d';' -f1" : 'cut -f1'} <file> | tail -n +2 > ids.txt`,
  );
}

/** A one-column export keeps its column's name on line 1: sent, it would be a recipient named "id". */
function refuseColumnName(line: string): void {
  if (!ID_HEADER.test(line)) return;
  throw invalidMessageError(
    `the client-ID input's line 1 ${JSON.stringify(line.trim())} is a column name, not a client ID`,
    'drop the first line (tail -n +2 <file> > ids.txt), or name the column client_id to read the file as CSV',
  );
}

/**
 * No client ID holds a comma (the --client-id flag splits on them), so a comma on the first line means a
 * CSV file, whose lines would each go out as one client ID that reaches no one: refused like a JSON array.
 */
function refuseCsv(start: string): void {
  const line = start.split(/\r?\n/, 1)[0]!;
  refuseOtherSeparator(line);
  if (!line.includes(',')) return refuseColumnName(line);
  const shown = JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
  const header = ID_HEADER.test(line.split(',', 1)[0]!);
  throw invalidMessageError(
    header
      ? `the client-ID input looks like CSV: line 1 ${shown} is a header, and its lines have commas; it takes one client ID per line`
      : `the client-ID input looks like CSV: line 1 ${shown} has commas; it takes one client ID per line`,
    header
      ? 'name the column of IDs client_id in the header to read it as CSV, or keep the first column without the header: cut -d, -f1 <file> | tail -n +2 > ids.txt'
      : 'keep the first column: cut -d, -f1 <file> > ids.txt',
  );
}
