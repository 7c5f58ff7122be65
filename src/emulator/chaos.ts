// The emulator's chaos mode (docs/behaviour.md#chaos): a chosen share of push requests answered with faults, from a
// seeded generator so that the same seed and the same sequence of requests give the same faults. Pure: the
// server asks `decide()` once per push request and acts on the answer.

/**
 * - `22001`: the service's own rate-limit answer (with Retry-After: 1); not processed.
 * - `503`: a gateway's answer, HTTP 503 with a JSON body `{"status":503,...}`; not processed.
 * - `hang`: no answer at all, until the client gives up or the emulator stops; not processed.
 * - `500`: processed (delivered), then HTTP 500 `{"status":500,...}` — the in-doubt case.
 * - `reset`: processed (delivered), then the connection is destroyed without an answer — in doubt too.
 */
export type ChaosFault = '22001' | '503' | '500' | 'reset' | 'hang';

const CHAOS_FAULTS: readonly ChaosFault[] = ['22001', '503', '500', 'reset', 'hang'];

/** Whether the emulator processes (stores, delivers) the request before answering with this fault. */
export const PROCESSED_BEFORE_FAULT: Readonly<Record<ChaosFault, boolean>> = { '22001': false, '503': false, hang: false, '500': true, reset: true };

export interface ChaosSpec {
  /** Share of push requests per fault, each from 0 to 1; their sum is at most 1. */
  shares: Partial<Record<ChaosFault, number>>;
  /** Every push answer is delayed by a uniform draw from this range (milliseconds). */
  latency?: { min: number; max: number };
}

export class ChaosSpecError extends Error {}

const MAX_LATENCY_MS = 60_000;

/** Parses `22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms`; "" or "off" is no chaos. */
export function parseChaosSpec(text: string): ChaosSpec {
  const spec: ChaosSpec = { shares: {} };
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'off') return spec;
  let total = 0;
  const given = new Map<string, string>();
  for (const part of trimmed.split(',')) {
    const [name = '', value, extra] = part.trim().split('=');
    if (value === undefined || extra !== undefined) throw new ChaosSpecError(`"${part.trim()}" is not name=value (e.g. 503=3% or latency=50-400ms)`);
    const earlier = given.get(name);
    if (earlier !== undefined) throw new ChaosSpecError(`${name} is given twice (${earlier} and ${part.trim()}); give each fault once`);
    given.set(name, part.trim());
    if (name === 'latency') {
      const range = /^(\d+)(?:-(\d+))?ms$/.exec(value);
      const min = Number(range?.[1]);
      const max = Number(range?.[2] ?? range?.[1]);
      if (!range || min > max || max > MAX_LATENCY_MS) throw new ChaosSpecError(`latency "${value}" is not a range such as 50-400ms (at most ${MAX_LATENCY_MS}ms)`);
      spec.latency = { min, max };
      continue;
    }
    if (!(CHAOS_FAULTS as readonly string[]).includes(name)) throw new ChaosSpecError(`unknown fault "${name}"; use ${CHAOS_FAULTS.join(', ')} or latency`);
    const share = /^(\d+(?:\.\d+)?)%$/.exec(value);
    const percent = Number(share?.[1]);
    if (!share || percent > 100) throw new ChaosSpecError(`${name}="${value}" is not a percentage from 0% to 100%`);
    spec.shares[name as ChaosFault] = percent / 100;
    total += percent;
  }
  if (total > 100 + 1e-9) throw new ChaosSpecError(`the fault shares add up to ${total}%, more than 100%`);
  return spec;
}

/** The spec written back in the form it is given. */
export function formatChaosSpec(spec: ChaosSpec): string {
  const parts = CHAOS_FAULTS.filter((f) => spec.shares[f] !== undefined).map((f) => `${f}=${+(spec.shares[f]! * 100).toFixed(4)}%`);
  if (spec.latency) parts.push(`latency=${spec.latency.min === spec.latency.max ? spec.latency.min : `${spec.latency.min}-${spec.latency.max}`}ms`);
  return parts.join(',');
}

/** A small, fast, seedable generator (mulberry32): chaos must repeat, not be cryptographic. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChaosDecision {
  fault?: ChaosFault;
  latencyMs: number;
}

/** The chaos in force: decides each push request's fate and counts what it decided. */
export class Chaos {
  private random: () => number;
  private requests = 0;
  private readonly faults: Record<ChaosFault, number> = { '22001': 0, '503': 0, '500': 0, reset: 0, hang: 0 };

  constructor(
    private spec: ChaosSpec = { shares: {} },
    private seed: number = 1,
  ) {
    this.random = seededRandom(seed);
  }

  /** Replaces the spec (and the seed, restarting the sequence, when one is given). */
  set(spec: ChaosSpec, seed?: number): void {
    this.spec = spec;
    if (seed !== undefined) {
      this.seed = seed;
      this.random = seededRandom(seed);
    }
  }

  get active(): boolean {
    return Object.keys(this.spec.shares).length > 0 || this.spec.latency !== undefined;
  }

  decide(): ChaosDecision {
    if (!this.active) return { latencyMs: 0 };
    this.requests += 1;
    // Two draws per request whatever the spec, so one fault's share never shifts another's sequence.
    const draw = this.random();
    const delay = this.random();
    const latencyMs = this.spec.latency ? Math.round(this.spec.latency.min + delay * (this.spec.latency.max - this.spec.latency.min)) : 0;
    let edge = 0;
    for (const fault of CHAOS_FAULTS) {
      edge += this.spec.shares[fault] ?? 0;
      if (draw < edge) {
        this.faults[fault] += 1;
        return { fault, latencyMs };
      }
    }
    return { latencyMs };
  }

  /** As `GET /v1/emulator/chaos` shows it. */
  describe(): { spec: string; seed: number; requests: number; faults: Record<ChaosFault, number> } {
    return { spec: formatChaosSpec(this.spec), seed: this.seed, requests: this.requests, faults: { ...this.faults } };
  }
}
