// A CSV client-ID file (docs/behaviour.md#variants): RFC 4180 with a header that names a `client_id` column
// and, optionally, a `language` column (the emulator's `--devices` CSV is such a file). Read as it arrives,
// as a plain list is: the bytes are cut at record ends (a newline outside quotes) and each complete block
// is parsed by csv-parse, so a quoted field with a newline in it is never split and the file is never held
// whole.
import { parse as parseCsv } from 'csv-parse/sync';
import { ClientIdError, invalidMessageError } from '../errors.js';
import { csvRecords } from '../message/csv-records.js';
import type { ClientIdCollector } from '../client/client-id-store.js';
import type { RecipientLanguages } from './recipient-languages.js';

const NEWLINE = 0x0a;
const QUOTE = 0x22;
/** No record of a client-ID CSV is this long; a longer one means an unclosed quote. */
const MAX_RECORD_BYTES = 64 * 1024;

const headerName = (cell: string) => cell.trim().replace(/^\uFEFF/, '').toLowerCase();

/** The column positions a CSV header names; undefined when it names no `client_id` column. */
export function csvColumns(header: readonly string[]): { id: number; language: number | undefined } | undefined {
  const names = header.map(headerName);
  const id = names.indexOf('client_id');
  if (id === -1) return undefined;
  const language = names.indexOf('language');
  return { id, language: language === -1 ? undefined : language };
}

/** Whether the first line of a client-ID input is a CSV header that names a `client_id` column. */
export function isClientIdCsvHeader(firstLine: string): boolean {
  try {
    const [header] = parseCsv(firstLine, { relax_column_count: true, relax_quotes: true }) as string[][];
    return header !== undefined && csvColumns(header) !== undefined;
  } catch {
    return false;
  }
}

export class CsvClientIds {
  private carry: Buffer = Buffer.alloc(0);
  /** How far into `carry` quotes were counted, and whether that point is inside a quoted field. */
  private scanned = 0;
  private quoted = false;
  private columns: { id: number; language: number | undefined } | undefined;
  /** Lines consumed before the current block, so an error names its line in the file. */
  private line = 1;

  constructor(
    private readonly collector: ClientIdCollector,
    private readonly languages: RecipientLanguages | undefined,
  ) {}

  /** Whether the header names a `language` column (known once the first block is parsed). */
  get hasLanguage(): boolean {
    return this.columns?.language !== undefined;
  }

  push(chunk: Buffer): void {
    this.carry = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const end = this.lastRecordEnd();
    if (end > 0) {
      this.parseBlock(this.carry.subarray(0, end));
      this.carry = Buffer.from(this.carry.subarray(end));
      this.scanned -= end;
    }
    if (this.carry.length > MAX_RECORD_BYTES) {
      throw invalidMessageError(`a record of the client-ID CSV from line ${this.line} is longer than ${MAX_RECORD_BYTES} bytes (an unclosed quote?)`, 'check the quotes of the file given to --client-ids-file');
    }
  }

  finish(): void {
    if (this.carry.length > 0) this.parseBlock(this.carry);
    this.carry = Buffer.alloc(0);
  }

  /** Just after the last newline outside quotes in `carry` (0: none yet). A doubled quote toggles twice. */
  private lastRecordEnd(): number {
    let end = 0;
    const bytes = this.carry;
    for (let i = this.scanned; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) this.quoted = !this.quoted;
      else if (byte === NEWLINE && !this.quoted) end = i + 1;
    }
    this.scanned = bytes.length;
    return end;
  }

  private parseBlock(block: Buffer): void {
    const text = block.toString('utf8');
    const records = csvRecords(text, this.columns === undefined, (at, reason) =>
      invalidMessageError(`the client-ID CSV is not valid CSV at line ${this.line + (at ?? 1) - 1} (${reason})`, 'check the quotes of the file given to --client-ids-file (RFC 4180)'),
    );
    for (const { record, info } of records) {
      try {
        this.add(record);
      } catch (error) {
        if (!(error instanceof ClientIdError)) throw error;
        throw invalidMessageError(`${error.message} at line ${this.line + info.lines - 1} of the client-ID CSV`, 'client IDs are printable text; check the client_id column of the file given to --client-ids-file');
      }
    }
    this.line += countNewlines(block);
  }

  private add(record: string[]): void {
    if (this.columns === undefined) {
      this.columns = csvColumns(record);
      if (this.columns === undefined) throw invalidMessageError('the client-ID CSV has no client_id column in its header', 'name the column of client IDs client_id in the first line (and the devices\' languages language)');
      return;
    }
    const before = this.collector.count;
    this.collector.add(record[this.columns.id] ?? '');
    // A repeat keeps its first language, as it keeps its first place.
    if (this.languages && this.columns.language !== undefined && this.collector.count > before) {
      this.languages.set(before, record[this.columns.language] ?? '');
    }
  }
}

function countNewlines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) n++;
  return n;
}
