// Reads back a report written by `--report`, for `--client-ids-file <report>`: the IDs to send again are
// those under `in_doubt` and `not_sent`. A report of a million recipients is tens of megabytes of JSON, so
// the layout pushctl writes (one entry per line, see reportJsonChunks) is read line by line, parsing only
// the entries that matter and never holding the whole text. Any other JSON falls back to one JSON.parse.
import { StringDecoder } from 'node:string_decoder';
import { invalidMessageError } from '../errors.js';
import type { ClientIdCollector } from '../client/client-id-store.js';
import type { ResendSections } from '../client/report.js';
import type { BatchStatus } from '../client/batch-result.js';

type Resend = ResendSections;
type Entry = { batch: number; client_ids: string[] };


/** How every report pushctl writes begins (after an optional byte-order mark and white space). */
const PUSHCTL_LAYOUT = /^\uFEFF?\s*\{\n {2}"version": /;
const SECTION = /^ {2}"(accepted|rejected|in_doubt|unknown|not_sent)": \[/;
/** The run that wrote the report, on its own line before the sections. */
const RUN_ID = /^ {2}"run_id": ("(?:[^"\\]|\\.)*")/;

const isEntry = (entry: unknown): entry is Entry =>
  typeof (entry as Entry)?.batch === 'number' && Array.isArray((entry as Entry).client_ids) && (entry as Entry).client_ids.every((id) => typeof id === 'string');

const GIVE_IDS_OR_REPORT = 'give one client ID per line, or a report written by --report';
const notAReport = () => invalidMessageError('the client-ID input is JSON but not a pushctl report (no "in_doubt" and "not_sent" lists)', GIVE_IDS_OR_REPORT);

export class ReportReader {
  private readonly decoder = new StringDecoder('utf8');
  /** The text so far while the layout is not known, or all of it when it is not pushctl's. */
  private text = '';
  private lineMode: boolean | undefined;
  private section: string | undefined;
  private readonly sections = new Set<string>();

  /** Unknown IDs left out because `includeInDoubt` was not set. */
  inDoubtLeftOut = 0;

  /**
   * IDs go straight into `collector`, in the report's order: unknown first (only with `includeInDoubt`: they
   * may already have the message), then not_sent.
   */
  constructor(
    private readonly collector: ClientIdCollector,
    private readonly includeInDoubt = false,
    /** Each ID's newest word among the runs that resent the report's run since (read-client-ids.ts). */
    private readonly laterWords?: (runId: string) => ReadonlyMap<string, BatchStatus>,
  ) {}

  private runId: string | undefined;
  private later: ReadonlyMap<string, BatchStatus> | undefined;

  /**
   * Takes a section's IDs to send again, each under its newest word: a resend of the report's run since may
   * have sent it (docs/behaviour.md#message-input); the in-doubt ones only with `includeInDoubt`.
   */
  private take(section: 'in_doubt' | 'not_sent', ids: readonly string[]): void {
    if (this.runId !== undefined && this.laterWords && !this.later) this.later = this.laterWords(this.runId);
    const taken: string[] = [];
    for (const id of ids) {
      const word = this.later?.get(id) ?? section;
      if (word === 'not_sent' || (word === 'in_doubt' && this.includeInDoubt)) taken.push(id);
      else if (word === 'in_doubt') this.inDoubtLeftOut += 1;
    }
    this.collector.addAll(taken);
  }

  push(chunk: Buffer): void {
    this.text += this.decoder.write(chunk);
    if (this.lineMode === undefined && this.text.trimStart().length >= 20) this.lineMode = PUSHCTL_LAYOUT.test(this.text);
    if (this.lineMode) this.readLines();
  }

  /** Reads what is left; by then every ID to send again is in the collector. */
  finish(): void {
    this.text += this.decoder.end();
    this.lineMode ??= PUSHCTL_LAYOUT.test(this.text);
    if (!this.lineMode) {
      const report = parseWhole(this.text);
      const runId = (report as { run_id?: unknown }).run_id;
      this.runId = typeof runId === 'string' ? runId : undefined;
      for (const entry of report.in_doubt) this.take('in_doubt', entry.client_ids);
      for (const entry of report.not_sent) this.take('not_sent', entry.client_ids);
      return;
    }
    this.text += '\n';
    this.readLines();
    if (!this.sections.has('in_doubt') || !this.sections.has('not_sent')) throw notAReport();
  }

  private readLines(): void {
    let start = 0;
    for (let end = this.text.indexOf('\n'); end !== -1; end = this.text.indexOf('\n', start)) {
      this.readLine(this.text.slice(start, end));
      start = end + 1;
    }
    this.text = this.text.slice(start);
  }

  private readLine(line: string): void {
    const runId = this.section === undefined ? RUN_ID.exec(line) : null;
    if (runId) this.runId = JSON.parse(runId[1]!) as string;
    const header = SECTION.exec(line);
    if (header) {
      // Reports written before 0.3 name the in-doubt section `unknown`.
      this.section = header[1] === 'unknown' ? 'in_doubt' : header[1]!;
      this.sections.add(this.section);
      return;
    }
    // Accepted and rejected entries, the bulk of a report, are skipped without being parsed.
    if (this.section !== 'in_doubt' && this.section !== 'not_sent') return;
    const text = line.trim().replace(/,$/, '');
    if (!text.startsWith('{')) return;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      throw invalidMessageError(`the report has a line that is not valid JSON: ${(error as Error).message}`, 'give the report as pushctl wrote it, or one client ID per line');
    }
    if (!isEntry(entry)) throw notAReport();
    this.take(this.section, entry.client_ids);
  }
}

function parseWhole(text: string): Resend {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalidMessageError(
      `the client-ID input starts with "{" but is not valid JSON: ${(error as Error).message}`,
      GIVE_IDS_OR_REPORT,
    );
  }
  const sections = json as Partial<Record<'in_doubt' | 'unknown' | 'not_sent', unknown>>;
  // Reports written before 0.3 name the in-doubt section `unknown`.
  const inDoubt = sections.in_doubt ?? sections.unknown;
  const valid = (section: unknown) => Array.isArray(section) && section.every(isEntry);
  if (!valid(inDoubt) || !valid(sections.not_sent)) throw notAReport();
  return { ...(json as Resend), in_doubt: inDoubt as Resend['in_doubt'] };
}
