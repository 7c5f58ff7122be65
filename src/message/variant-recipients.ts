// Client IDs arranged in lanes, one per variant of the message (docs/behaviour.md#variants): each ID takes the
// variant of its language (an exact tag, then its bare language), else the base message. The IDs are
// delivered lane run by lane run, so every batch carries one variant and no ID is in two requests.
//
// A list still being read keeps streaming: an ID waits in its lane until the lane fills a batch, which then
// joins the delivery order; the short rest of each lane follows once the input has ended.
import type { ClientIdSource, GrowingClientIds, PlanLanes, RecipientLanguageSource } from './recipients.js';
import { variantFor } from './variants.js';

interface Run {
  start: number;
  end: number;
  lane: string | null;
}

export class VariantRecipients implements ClientIdSource, PlanLanes {
  /** Positions in `source`, in delivery order. */
  protected readonly order: number[] = [];
  private readonly runs: Run[] = [];
  private readonly pending = new Map<string | null, number[]>();
  private readonly laneOf = new Map<string | undefined, string | null>();
  /** Positions of `source` put in a lane so far. */
  private pulled = 0;
  /** How many IDs each lane holds, for the plan's summary. */
  readonly counts = new Map<string | null, number>();

  /**
   * `batchSize`: a lane joins the order one full batch at a time while the input grows. `languages`: each
   * position's language (absent: every ID gets the base message).
   */
  constructor(
    protected readonly source: ClientIdSource,
    private readonly languages: RecipientLanguageSource | undefined,
    readonly tags: readonly string[],
    private readonly batchSize: number,
  ) {}

  /** An arrangement of a list that is whole: each lane is one run, in the variants' order, the base last. */
  static whole(source: ClientIdSource, languages: RecipientLanguageSource | undefined, tags: readonly string[]): VariantRecipients {
    const lanes = new VariantRecipients(source, languages, tags, Number.MAX_SAFE_INTEGER);
    lanes.pull(true);
    return lanes;
  }

  get length(): number {
    return this.order.length;
  }

  slice(start: number, end: number): string[] {
    return this.order.slice(start, end).map((position) => this.source.slice(position, position + 1)[0]!);
  }

  laneEnd(position: number): number {
    return this.runAt(position)?.end ?? position;
  }

  laneAt(position: number): string | null {
    return this.runAt(position)?.lane ?? null;
  }

  /** Puts the positions read since the last call in their lanes; with `ended`, every lane's rest joins the order. */
  protected pull(ended: boolean): void {
    const available = this.source.length;
    for (; this.pulled < available; this.pulled++) {
      const lane = this.variantOf(this.pulled);
      let waiting = this.pending.get(lane);
      if (!waiting) this.pending.set(lane, (waiting = []));
      waiting.push(this.pulled);
      this.counts.set(lane, (this.counts.get(lane) ?? 0) + 1);
      if (waiting.length >= this.batchSize) this.flush(lane);
    }
    if (ended) for (const lane of [...this.tags, null]) this.flush(lane);
  }

  private variantOf(position: number): string | null {
    const language = this.languages?.at(position);
    let lane = this.laneOf.get(language);
    if (lane === undefined) this.laneOf.set(language, (lane = variantFor(language, this.tags) ?? null));
    return lane;
  }

  private flush(lane: string | null): void {
    const waiting = this.pending.get(lane);
    if (!waiting || waiting.length === 0) return;
    const start = this.order.length;
    for (const position of waiting) this.order.push(position);
    this.pending.set(lane, []);
    const last = this.runs[this.runs.length - 1];
    // A lane that fills batch after batch is one run: the plan cuts it into batches.
    if (last && last.lane === lane && last.end === start) last.end = this.order.length;
    else this.runs.push({ start, end: this.order.length, lane });
  }

  private runAt(position: number): Run | undefined {
    // Binary search: a run of a million IDs in batches of one has a million runs at most.
    let low = 0;
    let high = this.runs.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const run = this.runs[mid]!;
      if (position < run.start) high = mid - 1;
      else if (position >= run.end) low = mid + 1;
      else return run;
    }
    return undefined;
  }
}

/** The same over a list still being read: what the delivery sees grows a full batch of one lane at a time. */
export class GrowingVariantRecipients extends VariantRecipients implements GrowingClientIds {
  readonly growing = true;

  constructor(
    private readonly feed: GrowingClientIds,
    languages: RecipientLanguageSource | undefined,
    tags: readonly string[],
    batchSize: number,
  ) {
    super(feed, languages, tags, batchSize);
  }

  override get length(): number {
    this.sync();
    return this.order.length;
  }

  get settled(): boolean {
    return this.feed.settled;
  }

  get list(): { duplicates: number } | undefined {
    this.sync();
    return this.feed.list;
  }

  get failure(): unknown {
    return this.feed.failure;
  }

  onChange(listener: () => void): () => void {
    return this.feed.onChange(() => {
      this.sync();
      listener();
    });
  }

  cancel(): void {
    this.feed.cancel();
  }

  release(): void {
    this.feed.release();
  }

  private sync(): void {
    this.pull(this.feed.list !== undefined);
  }
}
