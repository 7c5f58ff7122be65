// The recipients of a message as the rest of pushctl reads them, without caring how they are held.

/**
 * Recipients as the delivery engine reads them: a plain array, or a ClientIdStore that holds a million
 * IDs as bytes and makes strings only for the slice asked for. Only `length` and `slice(start, end)` are used.
 */
export interface ClientIdSource {
  readonly length: number;
  slice(start: number, end: number): string[];
  /** `JSON.stringify(slice(start, end))` as UTF-8 bytes, where the source can make it cheaply. */
  jsonBytes?(start: number, end: number): Buffer;
}

/** Each recipient's language by its position in a ClientIdSource (a CSV's `language` column; docs/behaviour.md#variants). */
export interface RecipientLanguageSource {
  at(position: number): string | undefined;
}

/**
 * Recipients held in lanes, one per variant of the message (docs/behaviour.md#variants): consecutive
 * positions of one lane form a run, and no batch crosses the end of a run, so each request carries one
 * variant and no ID is in two requests.
 */
export interface PlanLanes {
  /** Where the run of one lane that holds `position` ends. */
  laneEnd(position: number): number;
  /** The variant tag of the lane that holds `position`; null: the base message. */
  laneAt(position: number): string | null;
}

export function hasLanes(ids: ClientIdSource | undefined): ids is ClientIdSource & PlanLanes {
  return typeof (ids as Partial<PlanLanes> | undefined)?.laneEnd === 'function';
}

/** A message as journals keep it: everything but its client IDs (the batch records hold those). */
export function withoutClientIds<T extends object>(message: T): T {
  const condition = (message as { condition?: { client_ids?: unknown } }).condition;
  if (!condition || !('client_ids' in condition)) return message;
  const { client_ids: _ids, ...rest } = condition;
  return { ...message, condition: rest };
}

/**
 * Recipients still being read while a run sends them (a long client-ID file): `length` grows until the
 * list is `settled`. The delivery plans batches as they fill and journals each before it is sent.
 */
export interface GrowingClientIds extends ClientIdSource {
  readonly growing: true;
  /** Nothing more will come: read to the end, failed, or cancelled. */
  readonly settled: boolean;
  /** Set once read to the end: how many repeats were dropped. */
  readonly list: { duplicates: number } | undefined;
  /** Why reading stopped short (an invalid line, a read error). */
  readonly failure: unknown;
  /** Calls `listener` whenever IDs were added or reading settled; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void;
  /** Stop reading: the rest of the input stays unread. */
  cancel(): void;
  /** Go on reading: it waits from the point where a send could start until the send has started. */
  release(): void;
}

export function isGrowing(ids: ClientIdSource | undefined): ids is GrowingClientIds {
  return (ids as Partial<GrowingClientIds> | undefined)?.growing === true;
}
