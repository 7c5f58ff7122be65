// Every push request the emulator answered — accepted, dry run, rejected, chaos — newest first, for the
// inbox page and `GET /v1/emulator/requests`. Bounded by count and by bytes, so no flood of large requests
// can grow the process without limit.
import type { MessageIssue } from '../message/types.js';

export type RequestOutcome = 'accepted' | 'dry_run' | 'rejected' | 'chaos';

export interface RequestLogEntry {
  seq: number;
  received_at: string;
  app_id: string;
  outcome: RequestOutcome;
  /** The body status answered (200, 21xxx, 22001), or a chaos fault's HTTP status; 0 when nothing was answered. */
  status: number;
  meaning: string;
  http_status: number | null;
  message_id?: string;
  /** The message counts as delivered: accepted and not a dry run, or processed before a chaos fault. */
  delivered: boolean;
  chaos?: { fault: string; processed: boolean; latency_ms?: number };
  /** The validated body when valid, else the parsed JSON object. */
  body?: object;
  /** The raw text (clipped) when it was not a JSON object. */
  body_text?: string;
  errors?: MessageIssue[];
  warnings?: MessageIssue[];
  reached?: number;
  /** A dry run's audience: whom it would have reached. */
  would_reach?: number;
  unknown_client_ids?: number;
  fleet_size?: number;
}

export interface RequestQuery {
  app?: string;
  outcome?: string;
  kind?: 'notification' | 'data';
  q?: string;
  before?: number;
  limit?: number;
}

export interface RequestPage {
  entries: RequestLogEntry[];
  next_before: number | null;
  /** Entries kept, whatever the filters. */
  total: number;
  /** Entries the filters (app, outcome, kind, q) select, on every page. */
  matched: number;
}

export type RequestLogEvent = { type: 'request'; entry: RequestLogEntry } | { type: 'cleared' } | { type: 'closed' };

export interface RequestLogOptions {
  /** Most entries kept. Default 10,000. */
  keep?: number;
  /** Most bytes of entries kept (their bodies' JSON size). Default 32 MiB. */
  keepBytes?: number;
}

/** One page's JSON never grows past this, whatever `limit` says: the rest is on the next page. */
const PAGE_BYTES = 8 * 1024 * 1024;
export const MAX_PAGE = 500;

export class RequestLog {
  private items: { entry: RequestLogEntry; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;
  private readonly keep: number;
  private readonly keepBytes: number;
  private readonly listeners = new Set<(event: RequestLogEvent) => void>();

  constructor(options: RequestLogOptions = {}) {
    this.keep = Math.max(1, options.keep ?? 10_000);
    this.keepBytes = Math.max(1, options.keepBytes ?? 32 * 1024 * 1024);
  }

  /** Adds an entry (its `seq` is assigned here); `bytes` is its size as JSON, or an estimate of it. */
  add(entry: Omit<RequestLogEntry, 'seq'>, bytes: number): RequestLogEntry {
    const full = { seq: ++this.seq, ...entry } as RequestLogEntry;
    this.items.push({ entry: full, bytes });
    this.bytes += bytes;
    // The newest entry always stays, even when it alone is over the byte bound.
    while (this.size > 1 && (this.size > this.keep || this.bytes > this.keepBytes)) this.dropOldest();
    for (const listener of this.listeners) listener({ type: 'request', entry: full });
    return full;
  }

  list(query: RequestQuery = {}): RequestPage {
    const limit = Math.min(Math.max(1, query.limit ?? 50), MAX_PAGE);
    const needle = query.q?.trim().toLowerCase();
    const entries: RequestLogEntry[] = [];
    let pageBytes = 0;
    let nextBefore: number | null = null;
    // Every entry is looked at, past the page too, so that `matched` counts what the filters select.
    let matched = 0;
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const { entry, bytes } = this.items[i]!;
      if (!matches(entry, query, needle)) continue;
      matched += 1;
      if (query.before !== undefined && entry.seq >= query.before) continue;
      if (nextBefore !== null) continue;
      if (entries.length >= limit || (entries.length > 0 && pageBytes + bytes > PAGE_BYTES)) {
        nextBefore = entries[entries.length - 1]!.seq;
        continue;
      }
      entries.push(entry);
      pageBytes += bytes;
    }
    return { entries, next_before: nextBefore, total: this.size, matched };
  }

  clear(): number {
    const removed = this.size;
    this.items = [];
    this.head = 0;
    this.bytes = 0;
    for (const listener of this.listeners) listener({ type: 'cleared' });
    return removed;
  }

  /** Tells every subscriber the emulator is closing (event streams end, so shutdown does not wait on them). */
  close(): void {
    for (const listener of this.listeners) listener({ type: 'closed' });
    this.listeners.clear();
  }

  subscribe(listener: (event: RequestLogEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.items.length - this.head;
  }

  private dropOldest(): void {
    this.bytes -= this.items[this.head]!.bytes;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

function matches(entry: RequestLogEntry, query: RequestQuery, needle: string | undefined): boolean {
  if (query.app !== undefined && query.app !== '' && entry.app_id !== query.app) return false;
  if (query.outcome !== undefined && query.outcome !== '' && entry.outcome !== query.outcome) return false;
  const body = entry.body as { type?: unknown; notification?: { title?: unknown; desc?: unknown } } | undefined;
  if (query.kind === 'notification' && body?.type !== 1) return false;
  if (query.kind === 'data' && body?.type !== 2) return false;
  if (!needle) return true;
  const text = [entry.message_id, entry.app_id, entry.meaning, body?.notification?.title, body?.notification?.desc, entry.body_text, entry.body ? JSON.stringify(entry.body) : '']
    .filter((part) => typeof part === 'string')
    .join('\n')
    .toLowerCase();
  return text.includes(needle);
}
