import type { PushMessage } from '../message/types.js';

/** A message the emulator accepted, as listed at `GET /v1/emulator/messages` and written to `--record`. */
export interface StoredMessage {
  app_id: string;
  message_id: string;
  /** ISO 8601 time at which the emulator accepted it. */
  received_at: string;
  dry_run: boolean;
  /** False for dry runs: the service validates them but delivers nothing. */
  delivered: boolean;
  /** The body after validation and normalisation. */
  body: PushMessage;
  /** The message's language: its targeting's `language`, or the languages of the simulated devices it listed. */
  languages?: string[];
  /** With simulated devices (docs/behaviour.md#devices): how many it reached, and listed IDs no device has. */
  reached?: number;
  /** A dry run's audience: whom it would have reached. */
  would_reach?: number;
  unknown_client_ids?: number;
  fleet_size?: number;
}

export interface MessageStoreOptions {
  /** Most messages kept in memory; the oldest are dropped first. Default 10,000. */
  keep?: number;
  /** Most client IDs kept in memory over all kept messages, so that big runs stay bounded. Default 100,000. */
  keepClientIds?: number;
  /** Most bytes kept (what each message costs in memory, as `add` is told), so a flood of large messages cannot exhaust memory. Default 64 MiB. */
  keepBytes?: number;
  /** Receives one JSON line per accepted message (the `--record` file); never dropped. */
  sink?: (line: string) => void;
}

export interface StoreStats {
  /** Messages accepted since start (or since the last clear), kept or not. */
  accepted: number;
  /** Messages still in memory. */
  kept: number;
  /** Messages dropped from memory to respect the bounds. */
  dropped: number;
}

const clientIdCount = (m: StoredMessage) => m.body.condition.client_ids?.length ?? 0;

/**
 * Accepted messages, oldest first, bounded in memory by message count and by client-ID count.
 * The record sink sees every message, so a full history is available with `--record`.
 */
export class MessageStore {
  private items: (StoredMessage | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private ids = 0;
  private bytes = 0;
  private accepted = 0;
  private readonly acceptedByApp = new Map<string, number>();
  private readonly keep: number;
  private readonly keepClientIds: number;
  private readonly keepBytes: number;

  constructor(private readonly options: MessageStoreOptions = {}) {
    this.keep = Math.max(1, options.keep ?? 10_000);
    this.keepClientIds = Math.max(0, options.keepClientIds ?? 100_000);
    this.keepBytes = Math.max(1, options.keepBytes ?? 64 * 1024 * 1024);
  }

  /** Keeps a message that costs `bytes` of memory; serialised only for the record sink, when there is one. */
  add(message: StoredMessage, bytes: number): void {
    this.options.sink?.(JSON.stringify(message));
    this.items.push(message);
    this.sizes.push(bytes);
    this.bytes += bytes;
    this.ids += clientIdCount(message);
    this.accepted += 1;
    this.acceptedByApp.set(message.app_id, (this.acceptedByApp.get(message.app_id) ?? 0) + 1);
    // Always keep the newest message, even when it alone is over the client-ID bound.
    while (this.size > 1 && (this.size > this.keep || this.ids > this.keepClientIds || this.bytes > this.keepBytes)) this.dropOldest();
  }

  /** Kept messages, oldest first, optionally only those of one app and only the last `limit`. */
  list(app?: string, limit?: number): StoredMessage[] {
    const all = this.items.slice(this.head) as StoredMessage[];
    const chosen = app === undefined ? all : all.filter((m) => m.app_id === app);
    return limit !== undefined && limit < chosen.length ? chosen.slice(chosen.length - limit) : chosen;
  }

  /** Kept messages, newest first, without copying them. */
  *newestFirst(): Generator<StoredMessage> {
    for (let i = this.items.length - 1; i >= this.head; i--) yield this.items[i]!;
  }

  stats(app?: string): StoreStats {
    if (app === undefined) return { accepted: this.accepted, kept: this.size, dropped: this.accepted - this.size };
    const kept = this.list(app).length;
    const accepted = this.acceptedByApp.get(app) ?? 0;
    return { accepted, kept, dropped: accepted - kept };
  }

  /** Forgets kept messages (of one app, or all) and their counts; returns how many were removed from memory. */
  clear(app?: string): number {
    const before = this.size;
    const keptAt = app === undefined ? [] : this.items.flatMap((m, i) => (i >= this.head && m!.app_id !== app ? [i] : []));
    const remaining = keptAt.map((i) => this.items[i]!);
    this.sizes = keptAt.map((i) => this.sizes[i]!);
    this.items = remaining;
    this.head = 0;
    this.ids = remaining.reduce((n, m) => n + clientIdCount(m), 0);
    this.bytes = this.sizes.reduce((n, size) => n + size, 0);
    if (app === undefined) {
      this.accepted = 0;
      this.acceptedByApp.clear();
    } else {
      this.accepted -= this.acceptedByApp.get(app) ?? 0;
      this.acceptedByApp.delete(app);
    }
    return before - this.size;
  }

  /** Forgets one kept message (deleted from the inbox page): devices' inboxes no longer hold it. */
  remove(messageId: string): boolean {
    const at = this.items.findIndex((m, i) => i >= this.head && m?.message_id === messageId);
    if (at < 0) return false;
    const [message] = this.items.splice(at, 1);
    const [bytes] = this.sizes.splice(at, 1);
    this.ids -= clientIdCount(message!);
    this.bytes -= bytes ?? 0;
    // Deleted, not dropped: the counts say what is kept and what the bound dropped.
    this.accepted -= 1;
    this.acceptedByApp.set(message!.app_id, (this.acceptedByApp.get(message!.app_id) ?? 1) - 1);
    return true;
  }

  private get size(): number {
    return this.items.length - this.head;
  }

  private dropOldest(): void {
    const oldest = this.items[this.head];
    if (oldest) this.ids -= clientIdCount(oldest);
    this.bytes -= this.sizes[this.head] ?? 0;
    this.items[this.head] = undefined;
    this.head += 1;
    // Compact now and then rather than shifting on every drop, which would be O(n) each time.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }
}
