// `pushctl runs show` prints one run as labelled rows: every value starts in one column, whatever its label.
import { describe, expect, it } from 'vitest';
import { formatRunDetail, type RunDetail } from '../../../src/output/runs.js';

const counts = (n: number) => ({ total: n, accepted: n, rejected: 0, in_doubt: 0, not_sent: 0 });

describe('runs show: one column for every value', () => {
  it('with every row a run can have, the longest labels (message_ids, replaced by) included', () => {
    const run: RunDetail = {
      run_id: 'r1', path: '/j/r1.jsonl', started_at: '2026-12-03T00:00:00.000Z', app_id: 'app', host: 'h', dry_run: false, state: 'sent', exit_code: 0,
      title: 'Hello', once: 'k', parent: 'r0', resent_by: ['r2'], replaced_by: 'r3', replaces: 'r4', incomplete: 'cut short',
      summary: { batches: counts(2), recipients: counts(3) }, message_ids: ['m1', 'm2'], report: 'report.json',
    };
    const rows = formatRunDetail(run, [], undefined).split('\n').filter((line) => /^ {2}\S/.test(line));
    const columns = new Set(rows.map((line) => /^ {2}(title|started|journal|once key|resends|resent by|replaced by|replaces|incomplete|batches|recipients|message_ids|report) +/.exec(line)?.[0].length));
    expect([...columns]).toEqual([14]);
  });
});
