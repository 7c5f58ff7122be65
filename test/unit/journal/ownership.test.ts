// The lock protocol of journal/ownership.ts, one step at a time (the races themselves are raced for real in
// test/e2e/ownership.test.ts): a live owner stands, a stale or released one is taken over by a higher
// generation, and an owner that finds a higher generation knows it lost.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Lease, lockLiveness, ownerOf, pruneLocks, STALE_MS, tryAcquire } from '../../../src/journal/ownership.js';

const dir = mkdtempSync(join(tmpdir(), 'pushctl-locks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a lock', () => {
  it('is free, then owned; a second process sees the first owner alive', () => {
    expect(lockLiveness(dir, 'a')).toEqual({ state: 'free' });
    const lease = tryAcquire(dir, 'a', ownerOf('run-1'));
    expect(lease).toBeInstanceOf(Lease);
    const second = tryAcquire(dir, 'a', ownerOf('run-2'));
    expect(second).toMatchObject({ state: 'live', owner: { run_id: 'run-1', pid: process.pid } });
    (lease as Lease).release();
    expect(lockLiveness(dir, 'a')).toEqual({ state: 'free' });
    const third = tryAcquire(dir, 'a', ownerOf('run-3'));
    expect(third).toBeInstanceOf(Lease);
    // The released generation stays as the count to beat; older ones are removed.
    expect(readdirSync(dir).filter((f) => f.startsWith('a.'))).toEqual(['a.2']);
    (third as Lease).release();
  });

  it('not refreshed for longer than its stale time is dead, even with a live pid in another namespace', () => {
    const owner = { ...ownerOf('run-x'), pidns: 'pid:[1]' };
    writeFileSync(join(dir, 'b.1'), JSON.stringify(owner));
    expect(lockLiveness(dir, 'b').state).toBe('live');
    const old = new Date(Date.now() - STALE_MS - 1000);
    utimesSync(join(dir, 'b.1'), old, old);
    expect(lockLiveness(dir, 'b').state).toBe('dead');
    const lease = tryAcquire(dir, 'b', ownerOf('run-y'));
    expect(lease).toBeInstanceOf(Lease);
    expect(readdirSync(dir).filter((f) => f.startsWith('b.'))).toEqual(['b.2']);
    (lease as Lease).release();
  });

  it('whose owner is gone in this namespace is dead at once; a pid alone (another start time) proves nothing alive', () => {
    writeFileSync(join(dir, 'c.1'), JSON.stringify({ ...ownerOf('run-z'), pid: 999_999 }));
    expect(lockLiveness(dir, 'c').state).toBe('dead');
    writeFileSync(join(dir, 'd.1'), JSON.stringify({ ...ownerOf('run-w'), pid_start: 1 }));
    expect(lockLiveness(dir, 'd').state).toBe('dead');
  });

  it('lost to a higher generation aborts its owner at the next refresh', () => {
    const lease = tryAcquire(dir, 'e', ownerOf('run-1')) as Lease;
    writeFileSync(join(dir, 'e.2'), JSON.stringify(ownerOf('run-2')));
    lease.refresh();
    expect(lease.lost.aborted).toBe(true);
    lease.release();
    // A lost lease does not mark the winner's lock released.
    expect(lockLiveness(dir, 'e').state).toBe('live');
  });

  it('asked before a request leaves, is read afresh: a generation above it, or its file gone, is lost at once', () => {
    const lease = tryAcquire(dir, 'f', ownerOf('run-1')) as Lease;
    expect(lease.held()).toBe(true);
    writeFileSync(join(dir, 'f.2'), JSON.stringify(ownerOf('run-2')));
    expect(lease.held()).toBe(false);
    expect(lease.lost.aborted).toBe(true);
    const other = tryAcquire(dir, 'g', ownerOf('run-3')) as Lease;
    rmSync(join(dir, 'g.1'));
    expect(other.held()).toBe(false);
    lease.release();
    other.release();
  });
});

describe('retention', () => {
  it('removes released locks older than the given time, and nothing live or recent', () => {
    const live = tryAcquire(dir, 'p', ownerOf('run-live')) as Lease;
    const done = tryAcquire(dir, 'q', ownerOf('run-done')) as Lease;
    done.release();
    const old = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(join(dir, 'p.1'), old, old);
    utimesSync(join(dir, 'q.1'), old, old);
    pruneLocks(dir, Date.now() - 86_400_000);
    expect(readdirSync(dir).filter((f) => f === 'p.1' || f === 'q.1')).toEqual(['p.1']);
    live.release();
  });
});
