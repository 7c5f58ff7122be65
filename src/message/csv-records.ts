// CSV as the client-ID input and the emulator's devices file read it: RFC 4180 by csv-parse (quoted fields,
// quoted commas and quotes, CRLF), each record with the line it ends on, so an error can name its line.
import { parse as parseCsv } from 'csv-parse/sync';

export interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * The records of `text` (`bom`: drop a byte-order mark at its start). Text that is not CSV throws the error
 * `fail` makes of csv-parse's line (of `text`) and its reason, for the caller to place in its file.
 */
export function csvRecords(text: string, bom: boolean, fail: (line: number | undefined, reason: string) => Error): CsvRecord[] {
  try {
    // With `info`, csv-parse gives each record with its line (its typings say string[][]): read as what it is.
    const parsed: unknown[] = parseCsv(text, { info: true, bom, skip_empty_lines: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
    return parsed.map(recordWithLine);
  } catch (error) {
    throw fail((error as { lines?: number }).lines, (error as Error).message.replace(/ at line \d+/, ''));
  }
}

function recordWithLine(row: unknown): CsvRecord {
  if (typeof row === 'object' && row !== null && 'record' in row && 'info' in row && Array.isArray(row.record) && typeof row.info === 'object' && row.info !== null && 'lines' in row.info) {
    return { record: row.record.map(String), info: { lines: Number(row.info.lines) } };
  }
  throw new Error('csv-parse gave a record without its line');
}
