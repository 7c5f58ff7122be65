import { describe, expect, it } from 'vitest';
import { Chaos, formatChaosSpec, parseChaosSpec } from '../../../src/emulator/chaos.js';

describe('parseChaosSpec', () => {
  it('reads faults, shares and a latency range, and writes them back', () => {
    const spec = parseChaosSpec('22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms');
    expect(spec.shares).toEqual({ '22001': 0.05, '503': 0.03, '500': 0.02, reset: 0.02, hang: 0.01 });
    expect(spec.latency).toEqual({ min: 50, max: 400 });
    expect(formatChaosSpec(spec)).toBe('22001=5%,503=3%,500=2%,reset=2%,hang=1%,latency=50-400ms');
    expect(parseChaosSpec('off')).toEqual({ shares: {} });
    expect(parseChaosSpec('')).toEqual({ shares: {} });
  });

  it.each([
    ['404=5%', 'unknown fault "404"'],
    ['503=5', 'not a percentage'],
    ['503=101%', 'not a percentage'],
    ['503', 'not name=value'],
    ['latency=400-50ms', 'not a range'],
    ['500=60%,503=50%', 'add up to 110%'],
    // Given twice, a fault's share was the last one yet counted twice towards 100%: which was meant is unclear.
    ['503=5%,503=5%', '503 is given twice (503=5% and 503=5%); give each fault once'],
    ['latency=50ms,latency=10-20ms', 'latency is given twice (latency=50ms and latency=10-20ms); give each fault once'],
  ])('names the bad part of %s', (text, message) => {
    expect(() => parseChaosSpec(text)).toThrow(message);
  });
});

describe('Chaos', () => {
  it('the same seed gives the same faults; another seed another sequence', () => {
    const run = (seed: number) => {
      const chaos = new Chaos(parseChaosSpec('503=10%,500=10%,reset=5%,latency=10-20ms'), seed);
      return Array.from({ length: 200 }, () => chaos.decide());
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    for (const decision of run(7)) {
      expect(decision.latencyMs).toBeGreaterThanOrEqual(10);
      expect(decision.latencyMs).toBeLessThanOrEqual(20);
    }
  });

  it('answers roughly the chosen shares over many draws, and counts what it decided', () => {
    const chaos = new Chaos(parseChaosSpec('503=20%,500=10%'), 42);
    const faults = Array.from({ length: 10_000 }, () => chaos.decide().fault);
    const share = (f: string) => faults.filter((x) => x === f).length / faults.length;
    expect(share('503')).toBeGreaterThan(0.17);
    expect(share('503')).toBeLessThan(0.23);
    expect(share('500')).toBeGreaterThan(0.08);
    expect(share('500')).toBeLessThan(0.12);
    expect(chaos.describe()).toMatchObject({ requests: 10_000, faults: { '503': faults.filter((x) => x === '503').length } });
  });

  it('without a spec decides nothing and counts nothing', () => {
    const chaos = new Chaos();
    expect(chaos.decide()).toEqual({ latencyMs: 0 });
    expect(chaos.describe().requests).toBe(0);
  });
});
