import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReport, reportJsonChunks, summarizeBatches } from '../../../src/client/report.js';
import { leftIds } from '../../helpers/left-ids.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import { ClientIdCollector } from '../../../src/input/read-client-ids.js';
import type { AttemptOutcome } from '../../../src/client/outcome.js';
import { accepted, ambiguous, FakeSender, rejected, retryable } from './fake-sender.js';

const body = { type: 1 as const, time_to_live: 60, condition: { type: 2 as const } };

describe('report', () => {
  it('lists every input ID exactly once under its outcome, and resends unknown + not_sent (property)', async () => {
    const outcomes: fc.Arbitrary<AttemptOutcome> = fc.constantFrom(accepted('m'), rejected(), ambiguous(), retryable(), retryable(22001));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(outcomes, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 30 }),
        async (raw, batchSize, script, abortAfter) => {
          const { ids } = new ClientIdCollector().addAll(raw).result();
          const controller = new AbortController();
          const client = new FakeSender((_b, call) => {
            if (call === abortAfter) controller.abort();
            return script[call % script.length]!;
          });
          const results = await sendBatches({
            client, body, clientIds: ids, batchSize, concurrency: 3, signal: controller.signal, sleep: async () => undefined,
          });
          const built = buildReport(results);
          // The chunked writer must produce exactly the same document as JSON.stringify.
          const report = JSON.parse([...reportJsonChunks(built)].join('')) as ReturnType<typeof buildReport>;
          expect(report).toEqual(JSON.parse(JSON.stringify(built)));
          const listed = [report.accepted, report.rejected, report.in_doubt, report.not_sent].flat().flatMap((entry) => entry.client_ids);
          expect([...listed].sort()).toEqual([...ids].sort());
          const { recipients, batches } = report.summary;
          expect(recipients.total).toBe(ids.length);
          expect(recipients.accepted + recipients.rejected + recipients.in_doubt + recipients.not_sent).toBe(ids.length);
          expect(batches.accepted + batches.rejected + batches.in_doubt + batches.not_sent).toBe(batches.total);
          // The report's in_doubt and not_sent sections list the IDs the results leave, in that order.
          expect([...report.in_doubt, ...report.not_sent].flatMap((e) => e.client_ids)).toEqual(leftIds(results));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('builds the documented shape', () => {
    const report = buildReport([
      { index: 0, clientIds: ['a', 'b'], status: 'accepted', attempts: 1, messageId: 'm-1' },
      { index: 1, clientIds: ['c'], status: 'rejected', attempts: 1, code: 21005, message: 'bad' },
      { index: 2, clientIds: ['d'], status: 'in_doubt', attempts: 1, reason: 'HTTP 502' },
      { index: 3, clientIds: ['e'], status: 'not_sent', attempts: 0, reason: 'interrupted' },
    ]);
    expect(report).toEqual({
      version: 1,
      summary: {
        batches: { total: 4, accepted: 1, rejected: 1, in_doubt: 1, not_sent: 1 },
        recipients: { total: 5, accepted: 2, rejected: 1, in_doubt: 1, not_sent: 1 },
      },
      accepted: [{ batch: 0, message_id: 'm-1', client_ids: ['a', 'b'] }],
      rejected: [{ batch: 1, code: 21005, meaning: 'message illegal', message: 'bad', client_ids: ['c'] }],
      in_doubt: [{ batch: 2, reason: 'HTTP 502', client_ids: ['d'] }],
      not_sent: [{ batch: 3, reason: 'interrupted', client_ids: ['e'] }],
    });
    expect(summarizeBatches([]).batches.total).toBe(0);
  });
});
