// The journal is written before the wire, or nothing goes out (docs/behaviour.md#journal). A journal write that fails
// stops new requests at once; those already in flight finish; the rest come back not sent.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushClient } from '../../../src/client/push-client.js';
import { sendBatches } from '../../../src/client/send-batches.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { BatchPlan } from '../../../src/client/batches.js';
import { RunJournal } from '../../../src/journal/run-journal.js';
import { JournalWriteError } from '../../../src/journal/writer.js';
import { readJournal } from '../../../src/journal/reader.js';
import { readFileSync } from 'node:fs';
import type { PushMessage } from '../../../src/message/types.js';

const body: PushMessage = { type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Journal failure' } };
const ids = (n: number) => Array.from({ length: n }, (_, i) => `jf-${String(i).padStart(6, '0')}`);
const noFilter = { scrub: (t: string) => t, scrubBytes: (b: Buffer) => b };

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret: 'journal-failure-secret' }] });
});
afterAll(() => emulator.close());

const client = () => new PushClient({ baseUrl: emulator.url, appId: 'app', appSecret: 'journal-failure-secret', userAgent: 'pushctl/test', timeoutMs: 5000 });

describe('a journal that cannot record stops the run', () => {
  it('an injected writer fault: the request whose record failed never leaves, no later one starts, the rest are not sent', async () => {
    emulator.clear();
    let starts = 0;
    const c = client();
    try {
      const results = await sendBatches({
        client: c,
        body,
        clientIds: ids(20_000),
        batchSize: 1000,
        concurrency: 4,
        onAttemptStart: () => {
          starts += 1;
          if (starts > 6) throw new JournalWriteError('/journal/run.jsonl', 'ENOSPC', 'no space left on device');
        },
      });
      // Exactly the six recorded attempts reached the service; nothing after the failure did.
      expect(emulator.messages('app')).toHaveLength(6);
      expect(results.filter((r) => r.status === 'accepted')).toHaveLength(6);
      const notSent = results.filter((r) => r.status === 'not_sent');
      expect(notSent).toHaveLength(14);
      expect(notSent.every((r) => r.attempts === 0 && /ENOSPC/.test(r.reason ?? ''))).toBe(true);
    } finally {
      c.close();
    }
  });

  const canMount = (() => {
    if (process.getuid?.() !== 0) return false;
    const probe = mkdtempSync(join(tmpdir(), 'pushctl-mount-probe-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  })();
  if (!canMount) console.log('journal-failure: skipping the tmpfs test: mounting a small tmpfs needs root (mount -t tmpfs)');

  it.skipIf(!canMount)('a real full disk (a small tmpfs): RunJournal reports ENOSPC once, the journal read back is honest', async () => {
    emulator.clear();
    const mountPoint = mkdtempSync(join(tmpdir(), 'pushctl-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint]);
    const c = client();
    try {
      const all = ids(5_000);
      // A --journal path's directory is the user's to make (docs/behaviour.md#journal).
      mkdirSync(join(mountPoint, 'runs'), { mode: 0o700 });
      const journal = RunJournal.start({
        path: join(mountPoint, 'runs', 'run.jsonl'),
        env: {},
        cwd: mountPoint,
        filter: noFilter,
        version: 'test',
        appId: 'app',
        baseUrl: new URL(emulator.url),
        dryRun: false,
        argv: ['send'],
        message: body,
        clientIds: all,
        plan: BatchPlan.of(5000, 500),
      });
      // The plan is on disk; now the disk fills up, as another process on the machine might fill it.
      mkdirSync(join(mountPoint, 'other'), { recursive: true });
      try {
        writeFileSync(join(mountPoint, 'other', 'filler'), Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: the disk is full, which is the point.
      }
      const results = await sendBatches({ client: c, body, clientIds: all, batchSize: 500, concurrency: 2, onAttemptStart: (b, a) => journal.attemptStart(b, a), onAttempt: (e) => journal.attempt(e) });
      expect(journal.failure).toBeInstanceOf(JournalWriteError);
      expect(journal.failure!.message).toContain('ENOSPC');
      expect(journal.failure!.message).toContain(join(mountPoint, 'runs', 'run.jsonl'));
      journal.abandon();
      // The last page of the journal may still take a few records; from the first write that fails, nothing
      // more goes out. Every request that reached the service had its start record on disk first.
      const run = readJournal(readFileSync(join(mountPoint, 'runs', 'run.jsonl'), 'utf8'));
      expect(run.incomplete).toBeUndefined();
      const started = run.results.filter((r) => r.attempts > 0).length;
      const delivered = emulator.messages('app').length;
      expect(delivered).toBe(started);
      expect(delivered).toBeLessThan(10);
      const sentIds = new Set(emulator.messages('app').flatMap((m) => (m.body as PushMessage).condition.client_ids ?? []));
      for (const r of run.results) {
        // What the journal calls not sent was not sent; what reached the service is accepted or in doubt there.
        if (r.status === 'not_sent') for (const id of r.clientIds) expect(sentIds.has(id)).toBe(false);
        else expect(['accepted', 'in_doubt']).toContain(r.status);
      }
      expect(results.filter((r) => r.status === 'not_sent').length).toBe(10 - delivered);
    } finally {
      c.close();
      execFileSync('umount', ['-l', mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });
});
