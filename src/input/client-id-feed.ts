// Client IDs that are still being read while a run sends (docs/behaviour.md#performance: at a million IDs the first request
// leaves within 0.3 s). The reader keeps filling the collector in the background; the feed is the collector
// as the delivery reads it, and says when it grew, ended or failed.
import type { Readable } from 'node:stream';
import type { ClientIdCollector, ClientIdStore } from '../client/client-id-store.js';
import type { GrowingClientIds } from '../message/recipients.js';
import { readClientIds, type ClientIdList, type ReadClientIdsOptions } from './read-client-ids.js';

export { readClientIds } from './read-client-ids.js';
export { resendsSince } from './resends-since.js';
export { countClientIds } from './count-client-ids.js';

/**
 * A list shorter than this is read whole before anything is sent, as before: its plan costs a few
 * milliseconds, and a bad line in it then stops the run before anyone has the message. A longer list is
 * sent while it is read, from the first piece read (a file is read 256 KiB at a time) that brings it to this
 * many: every ID read before the first request is one more that request waits for.
 */
export const STREAM_AFTER = 10_000;

export class ClientIdFeed implements GrowingClientIds {
  readonly growing = true;
  /** The whole list, once read to its end. */
  list: ClientIdList | undefined;
  /** Why reading stopped short (an invalid line, a read error), once it did. */
  failure: unknown;
  private cancelled = false;
  private readonly listeners = new Set<() => void>();
  /** Set while reading waits for the send to start (see hold). */
  private held: { promise: Promise<void>; release: () => void } | undefined;

  /** The collector while reading; once the list is whole, it is let go (its hash table is garbage then). */
  private collector: ClientIdCollector | undefined;

  constructor(
    collector: ClientIdCollector,
    private readonly input: Readable,
  ) {
    this.collector = collector;
  }

  /** IDs read so far. */
  get length(): number {
    return this.list?.ids.length ?? this.collector?.count ?? 0;
  }

  /** The IDs read so far, as a store. */
  private get store(): ClientIdStore {
    return this.list?.ids ?? this.collector!.current();
  }

  /** Whether nothing more will come: read to the end, failed, or cancelled. */
  get settled(): boolean {
    return this.list !== undefined || this.failure !== undefined || this.cancelled;
  }

  slice(start: number, end: number): string[] {
    return this.store.slice(start, end);
  }

  jsonBytes(start: number, end: number): Buffer {
    return this.store.jsonBytes(start, end);
  }

  /** Calls `listener` whenever IDs were added or reading settled; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stop reading (a second Ctrl-C, a journal that cannot be written): the rest of the input stays unread. */
  cancel(): void {
    this.release();
    if (this.settled) return;
    this.cancelled = true;
    this.input.destroy();
    this.notify();
  }

  /**
   * Reading goes on once the send has started: until then it would only take the CPU from what must happen
   * before the first request (loading the client, the settings, the journal's first records).
   */
  release(): void {
    const held = this.held;
    this.held = undefined;
    held?.release();
  }

  /** @internal The reader's side: the reader waits for the promise it returns, if any. */
  grew(): Promise<void> | undefined {
    if (!this.settled) this.notify();
    return this.held?.promise;
  }

  /** @internal Hold reading at the next piece until `release`. */
  hold(): void {
    let release = (): void => {};
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { promise, release };
  }

  /** @internal */
  ended(list: ClientIdList): void {
    if (this.cancelled) return;
    this.list = list;
    this.collector = undefined;
    this.notify();
  }

  /** @internal */
  failed(error: unknown): void {
    if (this.cancelled) return;
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * Reads client IDs from `input` into `collector`. Returns the whole list when it ends (or is a report or a
 * journal) before `streamAfter` IDs (default {@link STREAM_AFTER}; Infinity: always whole); otherwise
 * returns a feed at that point, and reading goes on.
 * An error before that point is thrown; after it, it is the feed's `failure`.
 */
/**
 * (The feed holds reading where it starts streaming, until the delivery releases it as it starts sending.)
 */
export async function feedClientIds(
  input: Readable,
  collector: ClientIdCollector,
  options: Omit<ReadClientIdsOptions, 'onLines'> & { streamAfter?: number } = {},
): Promise<ClientIdList | ClientIdFeed> {
  const { streamAfter = STREAM_AFTER, ...readOptions } = options;
  const feed = new ClientIdFeed(collector, input);
  let streaming: (() => void) | undefined;
  const started = new Promise<void>((resolve) => (streaming = resolve));
  const read = readClientIds(input, collector, {
    ...readOptions,
    onLines: () => {
      if (streaming && collector.count >= streamAfter) {
        streaming();
        streaming = undefined;
        feed.hold();
      }
      return feed.grew();
    },
  });
  read.then(
    (list) => {
      // The list is whole: nothing more is added, and the index that found repeats is no longer needed.
      collector.release();
      feed.ended(list);
    },
    (error: unknown) => feed.failed(error),
  );
  await Promise.race([started, read]);
  return feed.list ?? feed;
}
