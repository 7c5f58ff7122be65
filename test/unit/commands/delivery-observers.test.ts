import { describe, expect, it } from 'vitest';
import type { AttemptEvent, BatchProgress } from '../../../src/client/send-batches.js';
import { attemptLogObserver, composeObservers, progressObserver } from '../../../src/commands/shared/delivery-observers.js';
import { plainStyle } from '../../../src/output/style.js';

const event = (more: Partial<AttemptEvent> = {}): AttemptEvent => ({ batch: 0, attempt: 1, body: {}, outcome: { kind: 'retryable', reason: 'could not connect (ECONNREFUSED)' }, ...more });
const progress = (more: Partial<BatchProgress> = {}): BatchProgress => ({
  batchesDone: 1,
  batchesTotal: 3,
  planComplete: true,
  recipientsDone: 1000,
  recipientsTotal: 2500,
  requests: 1,
  last: { index: 0, clientIds: [], status: 'accepted', attempts: 1 },
  ...more,
});

function sink(): { write: (s: string) => void; text: () => string } {
  let text = '';
  return { write: (s) => void (text += s), text: () => text };
}

describe('composeObservers', () => {
  it('calls every observer in order, and has no hook none of them has', () => {
    const calls: string[] = [];
    const composed = composeObservers(
      { onAttemptStart: (b, a) => calls.push(`journal start ${b}.${a}`), onAttempt: () => calls.push('journal') },
      undefined,
      { onAttempt: () => calls.push('log') },
    );
    composed.onAttemptStart!(2, 1);
    composed.onAttempt!(event());
    expect(calls).toEqual(['journal start 2.1', 'journal', 'log']);
    expect(composed.onProgress).toBeUndefined();
  });

  it('lets an observer’s error through, so a journal that cannot record stops the request', () => {
    const composed = composeObservers({
      onAttemptStart: () => {
        throw new Error('disk full');
      },
    });
    expect(() => composed.onAttemptStart!(0, 1)).toThrow('disk full');
  });
});

describe('progressObserver', () => {
  it('counts batches and recipients, with a + while the plan grows', () => {
    const lines: string[] = [];
    const observer = progressObserver({ update: (text) => lines.push(text) }, () => 1500);
    observer.onProgress!(progress());
    observer.onProgress!(progress({ planComplete: false, batchesDone: 2 }));
    expect(lines[0]).toMatch(/^batches 1\/3 · recipients 1000\/2500 · \d+ req\/s · 1\.5 s$/);
    expect(lines[1]).toMatch(/^batches 2\/3\+ · recipients 1000\/2500\+ · /);
  });

  it('a send by conditions (--all, --country) has no client IDs to count: it says none, not "recipients 0/0"', () => {
    const lines: string[] = [];
    const observer = progressObserver({ update: (text) => lines.push(text) }, () => 3000);
    observer.onProgress!(progress({ batchesDone: 1, batchesTotal: 1, recipientsDone: 0, recipientsTotal: 0 }));
    expect(lines[0]).toMatch(/^batches 1\/1 · \d+ req\/s · 3\.0 s$/);
  });
});

describe('attemptLogObserver', () => {
  const describeRequest = () => ({ method: 'POST' as const, url: 'http://127.0.0.1/v3/x', headers: {}, body: '{}' });

  it('with --verbose shows every attempt', () => {
    const stderr = sink();
    const observer = attemptLogObserver({ stderr, describeRequest, style: plainStyle, verbose: true, human: true })!;
    observer.onAttempt!(event());
    observer.onAttempt!(event({ attempt: 2 }));
    expect(stderr.text()).toContain('(batch 0, attempt 1)');
    expect(stderr.text()).toContain('(batch 0, attempt 2)');
  });

  it('without it tells a human of the first retry only, and a machine nothing', () => {
    const stderr = sink();
    const observer = attemptLogObserver({ stderr, describeRequest, style: plainStyle, verbose: false, human: true })!;
    observer.onAttempt!(event());
    observer.onAttempt!(event({ retryInMs: 100 }));
    observer.onAttempt!(event({ retryInMs: 200, attempt: 2 }));
    expect(stderr.text()).toBe('retrying: could not connect (ECONNREFUSED)\n');
    expect(attemptLogObserver({ stderr, describeRequest, style: plainStyle, verbose: false, human: false })).toBeUndefined();
  });
});
