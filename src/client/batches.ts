import type { PlanLanes } from '../message/recipients.js';

/** The service takes at most this many client IDs in one request (docs/behaviour.md#the-service). */
export const MAX_BATCH_SIZE = 1000;

/**
 * The `[start, end)` index ranges of consecutive batches of `size` over `total` IDs (the last may be shorter).
 * Ranges rather than arrays, so batches can be read from their source only when they are sent.
 */
export function batchRanges(total: number, size: number = MAX_BATCH_SIZE): [start: number, end: number][] {
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new RangeError(`batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}, got ${size}`);
  }
  const ranges: [number, number][] = [];
  for (let start = 0; start < total; start += size) ranges.push([start, Math.min(start + size, total)]);
  return ranges;
}

/**
 * The batches of a run: `[start, end)` ranges over the recipients, or one empty range for a message with no
 * client IDs (all devices, targeting). The delivery engine and the journal both plan with this.
 */
export function planBatches(recipients: number, size: number = MAX_BATCH_SIZE): [start: number, end: number][] {
  return recipients > 0 ? batchRanges(recipients, size) : [[0, 0]];
}

/**
 * The batches of a run as its recipients become known (docs/behaviour.md#performance: the first request leaves while the
 * input is still being read). Ranges are only ever appended, in order; the delivery engine sends each as soon
 * as it is here, and ends once the plan is `complete` (or `stopped`: the input failed, nothing more will come).
 * A plan of a known list is complete from the start.
 */
export class BatchPlan {
  readonly ranges: [start: number, end: number][] = [];
  /**
   * Each range's variant (docs/behaviour.md#variants), for a plan over lanes or over an audience's variants:
   * a tag, or null for the base message. Undefined for a message without variants.
   */
  lanes: (string | null)[] | undefined;
  /** Every recipient is planned: no range will be added. */
  complete = false;
  /** Why the plan stopped short of its input (an unreadable or invalid line): no range will be added. */
  stoppedBy: string | undefined;
  private planned = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly size: number = MAX_BATCH_SIZE,
    private readonly laned?: PlanLanes,
  ) {
    batchRanges(0, size);
    if (laned) this.lanes = [];
  }

  /** A complete plan over `recipients` known IDs (one empty batch when there are none: all devices, targeting). */
  static of(recipients: number, size: number = MAX_BATCH_SIZE, laned?: PlanLanes): BatchPlan {
    if (laned) {
      // Over lanes, a batch ends where its lane's run ends: planned as a growing plan that is given everything.
      const plan = new BatchPlan(size, laned);
      plan.extend(recipients, true);
      return plan;
    }
    const plan = new BatchPlan(size);
    // One push per range: a spread of 200,000 ranges (batch size 1) would overflow the call stack.
    for (const range of planBatches(recipients, size)) plan.ranges.push(range);
    plan.planned = recipients;
    plan.complete = true;
    return plan;
  }

  /** One request (no client IDs) per variant of an audience: condition targeting with variants. */
  static ofAudiences(lanes: readonly (string | null)[]): BatchPlan {
    const plan = new BatchPlan(MAX_BATCH_SIZE);
    plan.lanes = [...lanes];
    for (let i = 0; i < lanes.length; i++) plan.ranges.push([0, 0]);
    plan.complete = true;
    return plan;
  }

  /** Whether ranges may still be added. */
  get open(): boolean {
    return !this.complete && this.stoppedBy === undefined;
  }

  /** Recipients planned so far. */
  get recipients(): number {
    return this.planned;
  }

  /**
   * Plan the batches that `available` recipients fill; with `last`, the short batch at the end too, and the
   * plan is complete. Returns the new ranges (the caller journals them before anyone can send them).
   */
  extend(available: number, last = false): [number, number][] {
    if (!this.open) throw new Error('the plan is closed');
    const added: [number, number][] = [];
    while (available - this.planned >= this.size || (last && available > this.planned)) {
      const cut = this.laned ? this.laned.laneEnd(this.planned) : Infinity;
      const range: [number, number] = [this.planned, Math.min(this.planned + this.size, available, cut)];
      added.push(range);
      this.ranges.push(range);
      this.lanes?.push(this.laned!.laneAt(range[0]));
      this.planned = range[1];
    }
    if (last) {
      if (this.ranges.length === 0) {
        this.ranges.push([0, 0]);
        this.lanes?.push(null);
      }
      this.complete = true;
    }
    if (added.length > 0 || last) this.notify();
    return added;
  }

  /** No more ranges: the input failed with `reason`. */
  stop(reason: string): void {
    if (!this.open) return;
    this.stoppedBy = reason;
    this.notify();
  }

  /** Calls `listener` whenever ranges are added or the plan closes; returns the function that unsubscribes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
