// `pushctl runs` keeps fitting 80 columns with the state words of docs/behaviour.md#run-states, the longest
// of them on a dry run, whatever the titles and counts.
import { describe, expect, it } from 'vitest';
import { RUN_STATES } from '../../../src/journal/read-run.js';
import type { RunOverview } from '../../../src/journal/run-state.js';
import { formatRunTable } from '../../../src/output/runs.js';
import { foldFamilies } from '../../../src/journal/target-family.js';

const counts = (n: number) => ({ total: n, accepted: Math.floor(n / 2), rejected: 0, in_doubt: 1, not_sent: n - Math.floor(n / 2) - 1 });

describe('the runs table', () => {
  it('fits 80 columns with every state, dry runs, big counts and long titles', () => {
    const runs: RunOverview[] = RUN_STATES.map((state, i) => ({
      run_id: `20261124-10000${i}-abcd`, path: '/x', started_at: 'x', app_id: 'app', host: 'h', dry_run: i % 2 === 1, state, exit_code: null,
      title: `A release announcement with a very long title number ${i} that goes on and on`, summary: { batches: counts(10_000), recipients: counts(10_000_000) },
    }));
    const table = formatRunTable(runs, 80);
    for (const line of table.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(table).toContain('partly sent (dry)');
    expect(table).toContain('in doubt');
    expect(table).not.toContain('partly_sent');
  });

  it('a run that was resent says so, and leaves what is left to its resend\'s line', () => {
    const run = (id: string, state: RunOverview['state'], more: Partial<RunOverview> = {}): RunOverview => ({
      run_id: id, path: '/x', started_at: 'x', app_id: 'app', host: 'h', dry_run: false, state, exit_code: null, title: 'Hello', summary: { batches: counts(10), recipients: counts(2000) }, ...more,
    });
    const table = formatRunTable([run('20261124-100001-bbbb', 'killed', { parent: '20261124-100000-aaaa' }), run('20261124-100000-aaaa', 'killed', { resent_by: ['20261124-100001-bbbb'] })], 80);
    const [, resend, resent] = table.split('\n');
    expect(resend).toMatch(/^20261124-100001-bbbb +killed +1000\/2000 +1000 +Hello$/);
    expect(resent).toMatch(/^20261124-100000-aaaa +killed, resent +1000\/2000 +- +Hello$/);
  });

  it('a run to an audience counts its requests left, and says they are requests: it has no recipients to count', () => {
    const run = (id: string, batches: RunOverview['summary']['batches']): RunOverview => ({
      run_id: id, path: '/x', started_at: 'x', app_id: 'app', host: 'h', dry_run: false, state: 'not_sent', exit_code: null, title: 'Hello', audience: 'all devices', summary: { batches, recipients: counts(0) },
    });
    const none = { total: 1, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 1 };
    const table = formatRunTable([run('20261124-100000-aaaa', none), run('20261124-100001-bbbb', { ...none, total: 3, not_sent: 2, in_doubt: 1 })], 80);
    const [, one, three] = table.split('\n');
    expect(one).toMatch(/^20261124-100000-aaaa +not sent +none +1 request +Hello$/);
    expect(three).toMatch(/^20261124-100001-bbbb +not sent +none +3 requests +Hello$/);
  });

  it("a send to several targets whose target was resent: LEFT is only what the other targets left, and the line says resent", () => {
    const member = (id: string, state: RunOverview['state'], recipients: RunOverview['summary']['recipients'], more: Partial<RunOverview> = {}): RunOverview => ({
      run_id: id, path: '/x', started_at: 'x', app_id: 'app', host: 'h', dry_run: false, state, exit_code: null, title: 'Hello', targets: '20261124-100000-aaaa', summary: { batches: counts(1), recipients }, ...more,
    });
    const sent = { total: 4, accepted: 4, rejected: 0, in_doubt: 0, not_sent: 0 };
    const none = { total: 4, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 4 };
    const family = (second: Partial<RunOverview>, first = sent) => {
      const members = [member('20261124-100000-aaaa', first === sent ? 'sent' : 'not_sent', first), member('20261124-100000-bbbb', 'not_sent', none, second)];
      return formatRunTable(foldFamilies(members), 80).split('\n')[1];
    };
    expect(family({})).toMatch(/^20261124-100000-aaaa +partly sent, 2 targets +4\/8 +4 +Hello$/);
    expect(family({ resent_by: ['20261124-100001-cccc'] })).toMatch(/^20261124-100000-aaaa +partly sent, resent, 2 targets +4\/8 +- +Hello$/);
    // The other target's left stays on this line: only the resent target's is on its resend's.
    expect(family({ resent_by: ['20261124-100001-cccc'] }, none)).toMatch(/^20261124-100000-aaaa +not sent, resent, 2 targets +0\/8 +4 +Hello$/);
  });

  it('a resend of one target of several counts "1 target"', () => {
    const one: RunOverview = { run_id: '20261124-100001-cccc', path: '/x', started_at: 'x', app_id: 'app', host: 'h', dry_run: false, state: 'sent', exit_code: 0, title: 'Hello', targets: '20261124-100001-cccc', summary: { batches: counts(1), recipients: counts(4) } };
    expect(formatRunTable(foldFamilies([one]), 80).split('\n')[1]).toMatch(/^20261124-100001-cccc +sent, 1 target +/);
  });
});
