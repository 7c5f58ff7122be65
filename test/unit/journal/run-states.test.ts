// The words a run's state is told in (docs/behaviour.md#run-states): what a journal says happened, never
// "finished" for a run that delivered nothing. A table over the closing counts, then unclosed journals
// read back with their lock alive, dead, and their plan cut short.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closedState, readRun, stateWords, type RunState } from '../../../src/journal/read-run.js';
import { ownerOf, tryAcquire, Lease } from '../../../src/journal/ownership.js';

const counts = (accepted: number, rejected: number, in_doubt: number, notSent: number) => {
  const c = { total: accepted + rejected + in_doubt + notSent, accepted, rejected, in_doubt, not_sent: notSent };
  return { batches: c, recipients: c };
};

describe('a closed run', () => {
  const table: [string, ReturnType<typeof counts>, boolean, RunState][] = [
    ['every batch accepted', counts(3, 0, 0, 0), false, 'sent'],
    ['every batch accepted, a signal at the very end', counts(3, 0, 0, 0), true, 'sent'],
    ['some accepted, some rejected', counts(2, 1, 0, 0), false, 'partly_sent'],
    ['some accepted, some not sent', counts(1, 0, 0, 2), false, 'partly_sent'],
    ['every batch refused by the service (21004)', counts(0, 3, 0, 0), false, 'rejected'],
    ['nothing reached the service (network, proxy)', counts(0, 0, 0, 3), false, 'not_sent'],
    ['nothing certainly delivered, some maybe', counts(0, 1, 1, 1), false, 'in_doubt'],
    ['stopped by a signal with batches left', counts(1, 0, 0, 2), true, 'interrupted'],
    ['stopped by a signal before anything went out', counts(0, 0, 0, 3), true, 'interrupted'],
  ];
  for (const [what, summary, interrupted, state] of table) {
    it(`${what}: ${state}`, () => expect(closedState(summary, interrupted)).toBe(state));
  }
  it('is told in words for people', () => {
    expect(stateWords('partly_sent')).toBe('partly sent');
    expect(stateWords('in_doubt')).toBe('in doubt');
    expect(stateWords('skipped')).toBe('skipped');
  });
});

describe('an unclosed run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-states-'));
  const locks = join(dir, '.locks');
  mkdirSync(locks);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const journal = (runId: string, batches: number, declared = batches) => {
    const header = { t: 'header', format: 'pushctl-journal', v: 1, run_id: runId, started_at: 'x', version: 'x', pid: 999_999, app_id: 'a', host: 'h', base_url: 'http://h', dry_run: false, argv: [], message: {}, recipients: declared, batches: declared, lock: `run-${runId}` };
    const path = join(dir, `${runId}.jsonl`);
    writeFileSync(path, `${[JSON.stringify(header), ...Array.from({ length: batches }, (_, b) => JSON.stringify({ t: 'batch', b, ids: [`id${b}`] }))].join('\n')}\n`);
    return path;
  };

  it('is running while its lock is alive and held by it', () => {
    const path = journal('20261124-000000-0001', 2);
    const lease = tryAcquire(locks, 'run-20261124-000000-0001', ownerOf('20261124-000000-0001'));
    expect(lease).toBeInstanceOf(Lease);
    expect(readRun(path, locks).state).toBe('running');
    (lease as Lease).release();
    expect(readRun(path, locks).state).toBe('killed');
  });

  it('is killed when its lock is held by another run of its family, or by nobody', () => {
    const path = journal('20261124-000000-0002', 2);
    const lease = tryAcquire(locks, 'run-20261124-000000-0002', ownerOf('20261124-000000-0099'));
    expect(readRun(path, locks).state).toBe('killed');
    (lease as Lease).release();
  });

  it('is incomplete when its plan was cut short and its owner is gone', () => {
    const path = journal('20261124-000000-0003', 1, 3);
    expect(readRun(path, locks).state).toBe('incomplete');
  });
});
