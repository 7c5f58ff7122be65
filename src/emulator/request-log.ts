// Every push request the emulator answered — accepted, dry run, rejected, chaos — newest first, for the
// inbox page and `GET /v1/emulator/requests`. Bounded by count and by bytes, so no flood of large requests
// can grow the process without limit. Each entry is kept as its JSON text, serialised once when added: the
// text is what the event stream sends, and it takes a third of the memory of the parsed objects.
import type { MessageIssue } from '../message/types.js';

export const REQUEST_OUTCOMES = ['accepted', 'dry_run', 'rejected', 'chaos'] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

export interface RequestLogEntry {
  seq: number;
  received_at: string;
  app_id: string;
  outcome: RequestOutcome;
  /** The body status answered (200, 21xxx, 22001), or a chaos fault's HTTP status; 0 when nothing was answered. */
  status: number;
  meaning: string;
  /** A rejected request: the service's text answered with its code, which says why (the Authorization did not match, the body is not JSON). */
  message?: string;
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
  /** The message's language (docs/behaviour.md#variants): its targeting's, or its listed devices'. */
  languages?: string[];
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
  /**
   * The seq of the newest request answered when this page was read (0 before the first): an event stream
   * reader that loaded the page skips `request` events up to it, which the page already holds or counts.
   */
  last_seq: number;
}

/**
 * A `request` event carries the entry's JSON text, so that no reader serialises it again; so does `removed`, so
 * that a page holding only its newest entries can tell whether one it does not hold was among those its filters count.
 */
export type RequestLogEvent = { type: 'request'; seq: number; json: string } | { type: 'removed'; seq: number; json: string } | { type: 'cleared' } | { type: 'closed' };

export interface RequestLogOptions {
  /** Most entries kept. Default 10,000. */
  keep?: number;
  /** Most bytes of entries kept (their JSON text's size in memory). Default 32 MiB. */
  keepBytes?: number;
}

/** One page's JSON never grows past this, whatever `limit` says: the rest is on the next page. */
const PAGE_BYTES = 8 * 1024 * 1024;
export const MAX_PAGE = 500;

/** What a kept entry costs beyond its text. */
const ITEM_OVERHEAD_BYTES = 96;

/** A kept entry: its JSON text, and the fields the filters read without parsing it. */
interface Item {
  seq: number;
  app_id: string;
  outcome: RequestOutcome;
  type: unknown;
  json: string;
  bytes: number;
}

export class RequestLog {
  private items: (Item | undefined)[] = [];
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

  /** Adds an entry (its `seq` is assigned here) and tells the subscribers; returns its seq. */
  add(entry: Omit<RequestLogEntry, 'seq'>): number {
    const seq = ++this.seq;
    const json = JSON.stringify({ seq, ...entry });
    // V8 keeps text with no character above U+00FF in one byte per character, other text in two.
    const bytes = json.length * (/[\u0100-\uffff]/.test(json) ? 2 : 1) + ITEM_OVERHEAD_BYTES;
    this.items.push({ seq, app_id: entry.app_id, outcome: entry.outcome, type: (entry.body as { type?: unknown } | undefined)?.type, json, bytes });
    this.bytes += bytes;
    // The newest entry always stays, even when it alone is over the byte bound.
    while (this.size > 1 && (this.size > this.keep || this.bytes > this.keepBytes)) this.dropOldest();
    for (const listener of this.listeners) listener({ type: 'request', seq, json });
    return seq;
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
      const item = this.items[i]!;
      if (!matchesFields(item, query)) continue;
      // Only a text search reads an entry before it is listed.
      const entry = needle === undefined || needle === '' ? undefined : (JSON.parse(item.json) as RequestLogEntry);
      if (entry && !matchesText(entry, needle!)) continue;
      matched += 1;
      if (query.before !== undefined && item.seq >= query.before) continue;
      if (nextBefore !== null) continue;
      if (entries.length >= limit || (entries.length > 0 && pageBytes + item.bytes > PAGE_BYTES)) {
        nextBefore = entries[entries.length - 1]!.seq;
        continue;
      }
      entries.push(entry ?? (JSON.parse(item.json) as RequestLogEntry));
      pageBytes += item.bytes;
    }
    return { entries, next_before: nextBefore, total: this.size, matched, last_seq: this.seq };
  }

  /** Forgets one entry and tells the subscribers; returns it (its message_id), or undefined when none has `seq`. */
  remove(seq: number): RequestLogEntry | undefined {
    const at = this.items.findIndex((item, i) => i >= this.head && item?.seq === seq);
    if (at < 0) return undefined;
    const [item] = this.items.splice(at, 1);
    this.bytes -= item!.bytes;
    for (const listener of this.listeners) listener({ type: 'removed', seq, json: item!.json });
    return JSON.parse(item!.json) as RequestLogEntry;
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
    // Released now, not at the next compaction: until then a dropped entry would still hold its memory.
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/** Whether an entry passes the filters; `needle` is `query.q` trimmed and lower-cased. The inbox page applies it to live entries. */
export function matches(entry: RequestLogEntry, query: RequestQuery, needle: string | undefined): boolean {
  const fields = { app_id: entry.app_id, outcome: entry.outcome, type: (entry.body as { type?: unknown } | undefined)?.type };
  return matchesFields(fields, query) && (!needle || matchesText(entry, needle));
}

function matchesFields(item: Pick<Item, 'app_id' | 'outcome' | 'type'>, query: RequestQuery): boolean {
  if (query.app !== undefined && query.app !== '' && item.app_id !== query.app) return false;
  if (query.outcome !== undefined && query.outcome !== '' && item.outcome !== query.outcome) return false;
  if (query.kind === 'notification' && item.type !== 1) return false;
  if (query.kind === 'data' && item.type !== 2) return false;
  return true;
}

function matchesText(entry: RequestLogEntry, needle: string): boolean {
  const body = entry.body as { notification?: { title?: unknown; desc?: unknown } } | undefined;
  const text = [entry.message_id, entry.app_id, entry.meaning, body?.notification?.title, body?.notification?.desc, entry.body_text, entry.body ? JSON.stringify(entry.body) : '']
    .filter((part) => typeof part === 'string')
    .join('\n')
    .toLowerCase();
  return text.includes(needle);
}
