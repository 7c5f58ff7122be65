// Files written by pushctl 0.2 call "in doubt" `ambiguous` (an attempt's kind) and `unknown` (counts, a
// report's section): 0.3 reads them as today's word, so a run killed before an upgrade can still be finished.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../../src/journal/reader.js';
import { JOURNAL_FORMAT } from '../../../src/journal/records.js';
import { readClientIds } from '../../../src/input/read-client-ids.js';
import { buildReport, reportJsonChunks } from '../../../src/client/report.js';
import type { BatchResult } from '../../../src/client/send-batches.js';

const lines = (...records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
const header = {
  t: 'header', format: JOURNAL_FORMAT, v: 1, run_id: 'r02', started_at: '2026-11-01T00:00:00.000Z', version: '0.2.0', pid: 1,
  app_id: 'app', host: '127.0.0.1:1', dry_run: false, argv: ['send'], message: { type: 1 }, recipients: 4, batches: 2,
};

describe('a journal written by 0.2', () => {
  it('reads an `ambiguous` attempt as in doubt', () => {
    const run = readJournal(lines(header, { t: 'batch', b: 0, ids: ['a', 'b'] }, { t: 'batch', b: 1, ids: ['c', 'd'] },
      { t: 'start', b: 0, a: 1 }, { t: 'outcome', b: 0, a: 1, kind: 'ambiguous', reason: 'HTTP 500' },
      { t: 'start', b: 1, a: 1 }, { t: 'outcome', b: 1, a: 1, kind: 'accepted', message_id: 'm1' }));
    expect(run.results.map((r) => r.status)).toEqual(['in_doubt', 'accepted']);
    expect(run.results[0]!.reason).toBe('HTTP 500');
  });

  it('reads the end summary\'s `unknown` counts as in_doubt', () => {
    const counts = { total: 2, accepted: 1, rejected: 0, unknown: 1, not_sent: 0 };
    const run = readJournal(lines(header, { t: 'end', ended_at: 'x', interrupted: false, exit_code: 7, summary: { batches: counts, recipients: counts } }));
    expect(run.end?.summary.batches).toEqual({ total: 2, accepted: 1, rejected: 0, in_doubt: 1, not_sent: 0 });
  });
});

describe('a report written by 0.2', () => {
  // The layout 0.2 wrote, one entry per line, with its section named `unknown` (as today's with the old name).
  const report = (layout: 'lines' | 'whole') => {
    const results: BatchResult[] = [
      { index: 0, clientIds: ['a'], status: 'accepted', attempts: 1, messageId: 'm' },
      { index: 1, clientIds: ['d'], status: 'in_doubt', attempts: 1, reason: 'HTTP 502' },
      { index: 2, clientIds: ['b', 'c'], status: 'not_sent', attempts: 0, reason: 'interrupted' },
    ];
    const text = [...reportJsonChunks(buildReport(results))].join('').replaceAll('"in_doubt"', '"unknown"');
    expect(text).toMatch(/\n {2}"unknown": \[/);
    return layout === 'whole' ? JSON.stringify(JSON.parse(text)) : text;
  };

  for (const layout of ['lines', 'whole'] as const) {
    it(`takes its \`unknown\` section as the IDs in doubt (${layout})`, async () => {
      const plain = async (includeInDoubt: boolean) => {
        const list = await readClientIds(Readable.from([report(layout)]), undefined, { includeInDoubt });
        return { ids: list.ids.toArray(), inDoubtLeftOut: list.inDoubtLeftOut };
      };
      expect(await plain(false)).toEqual({ ids: ['b', 'c'], inDoubtLeftOut: 1 });
      expect(await plain(true)).toEqual({ ids: ['d', 'b', 'c'], inDoubtLeftOut: undefined });
    });
  }
});
