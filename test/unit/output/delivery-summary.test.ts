import { describe, expect, it } from 'vitest';
import { summarizeBatches } from '../../../src/client/report.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import type { ClientIdSource } from '../../../src/message/recipients.js';
import type { PushMessage } from '../../../src/message/types.js';
import { deliveryDocument, deliveryHeadline, formatSummary, printDelivery } from '../../../src/output/delivery.js';
import { closedState, stateWords } from '../../../src/journal/read-run.js';
import { serviceRefused } from '../../../src/client/report.js';
import type { BatchResult } from '../../../src/client/send-batches.js';
import { plainStyle } from '../../../src/output/style.js';
import { accepted, ambiguous, FakeSender, idsOf, rejected, retryable } from '../client/fake-sender.js';

const body: PushMessage = { type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Hi' } };

/** Recipients that count how many ID strings they hand out. */
function countingIds(n: number): ClientIdSource & { made: number } {
  const source = {
    made: 0,
    length: n,
    slice(start: number, end: number): string[] {
      const ids = Array.from({ length: Math.min(end, n) - start }, (_, i) => `id-${start + i}`);
      source.made += ids.length;
      return ids;
    },
  };
  return source;
}

/** Ten batches: seven accepted, one rejected, one in doubt, one not sent after 22001s. */
async function mixedRun() {
  const ids = countingIds(10_000);
  const client = new FakeSender((sent, call) => {
    const first = idsOf(sent)[0];
    if (first === 'id-3000') return rejected(21005);
    if (first === 'id-6000') return ambiguous();
    if (first === 'id-8000') return retryable(22001);
    return accepted(`m-${call}`);
  });
  const results = await sendBatches({ client, body, clientIds: ids, concurrency: 1, sleep: async () => undefined });
  return { ids, results };
}

describe('the end-of-run summary', () => {
  it('reads the same as before, word for word', async () => {
    const { results } = await mixedRun();
    // The text this summary had before it stopped making every batch's ID strings.
    expect(formatSummary(summarizeBatches(results), results, false, plainStyle, false, 2.5)).toBe(
      [
        'partly sent: 7 of 10 batches accepted (7000 of 10000 recipients); 1 rejected, 1 in doubt, 1 not sent in 2.5 s',
        '  accepted       7 batches       7000 recipients',
        '  rejected       1 batch       1000 recipients',
        '  in doubt       1 batch       1000 recipients',
        '  not sent       1 batch       1000 recipients',
        '  rejected: 21005 message illegal (service: "no") (1 batch)',
        '  in doubt: HTTP 502 (1 batch)',
        '  not sent: 22001 called too frequently (service: "too fast") (1 batch)',
        'hint: 21005: the service refused the body; run `pushctl validate` and compare with the interface document',
        "hint: 22001: the rate limit was hit; lower --rate (its default, 50 requests per second, is the service's published limit, which other senders may be using too)",
        '',
      ].join('\n'),
    );
  });

  it("--json's hint holds every next step, one clause each, without a sentence's full stop inside the list", async () => {
    const { results } = await mixedRun();
    const document = deliveryDocument({ results, summary: summarizeBatches(results), exitCode: 7, dryRun: false, batched: true, warnings: [], notes: [], interrupted: false, elapsedSeconds: 1 });
    expect(document.error?.hint).toBe(
      "21005: the service refused the body; run `pushctl validate` and compare with the interface document; 22001: the rate limit was hit; lower --rate (its default, 50 requests per second, is the service's published limit, which other senders may be using too)",
    );
  });

  it('makes no client ID string for the summary, human or --json', async () => {
    const { ids, results } = await mixedRun();
    // Sending made each batch's strings once per batch (retries reuse the body).
    const sent = ids.made;
    const summary = summarizeBatches(results);
    formatSummary(summary, results, false, plainStyle);
    const sink = { write: () => true };
    for (const mode of [{}, { json: true }, { quiet: true }]) {
      printDelivery({ results, summary, exitCode: 7, dryRun: false, batched: true, warnings: [], notes: [], interrupted: false, elapsedSeconds: 1 }, mode, { stdout: sink, stderr: sink } as never, plainStyle);
    }
    expect(ids.made).toBe(sent);
  });

  it('after a stop, counts as gone out only the batches the service may have taken, and names every outcome', async () => {
    // A batch answered 22001 on every attempt made a request, but the service said it processed nothing: it
    // is left to send, so "went out" must not count it, and the rejected and in-doubt batches are named too.
    const { results } = await mixedRun();
    const headline = formatSummary(summarizeBatches(results), results, false, plainStyle, true, 2.5).split('\n')[0];
    expect(headline).toBe('interrupted: 9 of 10 batches went out (9000 of 10000 recipients); 7 accepted, 1 rejected, 1 in doubt, 1 not sent in 2.5 s');
  });

  it('names the audience of a run without client IDs and counts its requests, never "0 recipients"', () => {
    const result = (index: number, status: 'accepted' | 'in_doubt') => ({ index, clientIds: [], status, attempts: 1, ...(status === 'accepted' ? { messageId: `m-${index}` } : { reason: 'HTTP 502' }) });
    const results = [result(0, 'accepted'), result(1, 'accepted'), result(2, 'in_doubt')];
    const text = formatSummary(summarizeBatches(results), results, false, plainStyle, false, 1, 'condition: language en,fr (one request per language variant)');
    expect(text.split('\n').slice(0, 3)).toEqual([
      'partly sent: 2 of 3 batches accepted; 1 in doubt in 1.0 s',
      '  accepted       2 batches',
      '  in doubt       1 batch',
    ]);
    const all = [result(0, 'accepted'), result(1, 'accepted')];
    expect(formatSummary(summarizeBatches(all), all, true, plainStyle, false, undefined, 'all devices')).toBe('sent (dry run): 2 batches to all devices\n  accepted       2 batches\n');
  });
});

describe('the headline speaks the run state\'s word (docs/behaviour.md#run-states)', () => {
  const batch = (index: number, status: BatchResult['status'], extra: Partial<BatchResult> = {}): BatchResult => ({ index, clientIds: [`id-${index}`], status, attempts: 1, ...extra });
  const runs: [string, BatchResult[], boolean][] = [
    ['every batch accepted', [batch(0, 'accepted'), batch(1, 'accepted')], false],
    ['some accepted', [batch(0, 'accepted'), batch(1, 'in_doubt', { reason: 'HTTP 502' })], false],
    ['nothing reached the service', [batch(0, 'not_sent', { reason: 'ECONNREFUSED' }), batch(1, 'not_sent', { reason: 'ECONNREFUSED' })], false],
    ['every request in doubt', [batch(0, 'in_doubt', { reason: 'HTTP 502' }), batch(1, 'in_doubt', { reason: 'HTTP 502' })], false],
    ['rejected and not sent', [batch(0, 'rejected', { code: 21005 }), batch(1, 'not_sent', { reason: 'ECONNREFUSED' })], false],
    ['refused for the app', [batch(0, 'not_sent', { code: 21004 }), batch(1, 'not_sent', { code: 21004 })], false],
    ['stopped by a signal', [batch(0, 'accepted'), batch(1, 'not_sent', { attempts: 0 })], true],
    ['stopped before anything went out', [batch(0, 'not_sent', { attempts: 0 })], true],
    ['stopped after every batch', [batch(0, 'accepted')], true],
  ];
  it.each(runs)('%s: the same word as runs and --json', (_, results, interrupted) => {
    const summary = summarizeBatches(results);
    const word = stateWords(closedState(summary, interrupted, serviceRefused(results)));
    for (const dryRun of [false, true]) {
      const headline = deliveryHeadline(summary, results, dryRun, interrupted);
      expect(headline.startsWith(`${word}${dryRun ? ' (dry run)' : ''}: `), headline).toBe(true);
      expect(deliveryHeadline(summary, results, dryRun, interrupted, 'all devices').startsWith(`${word}${dryRun ? ' (dry run)' : ''}: `)).toBe(true);
    }
  });
});
