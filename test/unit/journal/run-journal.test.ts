import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchPlan } from '../../../src/client/batches.js';
import { RunJournal } from '../../../src/journal/run-journal.js';
import { MAX_LINE } from '../../../src/journal/journal-file.js';
import { readJournal } from '../../../src/journal/reader.js';

const noFilter = { scrub: (t: string) => t, scrubBytes: (b: Buffer) => b };

describe('RunJournal', () => {
  it('two runs started in the same second with the same random part get two ids; the user never has to name a path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-ids-'));
    try {
      const start = (random: () => number) =>
        RunJournal.start({ env: { PUSHCTL_JOURNAL_DIR: dir }, cwd: dir, filter: noFilter, version: 't', appId: 'a', baseUrl: new URL('http://127.0.0.1:1'), dryRun: false, argv: [], message: {}, clientIds: undefined, plan: BatchPlan.of(0), now: new Date('2026-11-24T00:00:00Z'), random });
      const sequence = [0, 0, 0.5];
      const first = start(() => 0);
      const second = start(() => sequence.shift()!);
      first.abandon();
      second.abandon();
      expect(first.runId).toBe('20261124-000000-0000');
      expect(second.runId).toBe('20261124-000000-8000');
      expect(readdirSync(dir).sort()).toEqual(['20261124-000000-0000.jsonl', '20261124-000000-8000.jsonl']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a header larger than a reader takes back (64 MiB) is refused before anything is sent, and leaves no journal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-big-header-'));
    try {
      // Variants sharing one 4 MiB message: the header's JSON passes MAX_LINE while memory holds the text once
      // (and the header's JSON once, as the guard makes it), so the test stays bounded whatever the limit.
      const message = { type: 1, time_to_live: 3600, notification: { title: 'x'.repeat(4 * 1024 * 1024) } };
      const variants = Object.fromEntries(Array.from({ length: Math.ceil(MAX_LINE / (4 * 1024 * 1024)) + 1 }, (_, i) => [`l${i}`, message]));
      const start = () =>
        RunJournal.start({ env: { PUSHCTL_JOURNAL_DIR: dir }, cwd: dir, filter: noFilter, version: 't', appId: 'a', baseUrl: new URL('http://127.0.0.1:1'), dryRun: false, argv: [], message, variants, clientIds: undefined, plan: BatchPlan.of(0) });
      expect(start).toThrow(/the message is too large for the run journal \(\d+ MiB with its variants; at most 64 MiB\); nothing was sent/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an attempt its run lost before it left (the lease read after its start) reads as not sent, one that left as in doubt', () => {
    // An owner stopped between recording a start and reading its lease: its successor read that start as in
    // doubt and left the batch; the owner, continued, sends nothing and records the truth, so the family's
    // next resend sends the batch once (docs/behaviour.md#ownership).
    const dir = mkdtempSync(join(tmpdir(), 'pushctl-lost-'));
    try {
      const ids = ['a', 'b', 'c', 'd'];
      const journal = RunJournal.start({ env: { PUSHCTL_JOURNAL_DIR: dir }, cwd: dir, filter: noFilter, version: 't', appId: 'a', baseUrl: new URL('http://127.0.0.1:1'), dryRun: false, argv: [], message: {}, clientIds: ids, plan: BatchPlan.of(ids.length, 2) });
      journal.attemptStart(0, 1, () => undefined);
      const before = readJournal(readFileSync(journal.path, 'utf8')).results;
      expect(() =>
        journal.attemptStart(1, 1, () => {
          throw new Error('another pushctl process took over run-x');
        }),
      ).toThrow('took over');
      journal.abandon();
      const after = readJournal(readFileSync(journal.path, 'utf8')).results;
      expect(before.map((b) => b.status)).toEqual(['in_doubt', 'not_sent']);
      expect(after.map((b) => [b.status, b.clientIds])).toEqual([
        ['in_doubt', ['a', 'b']],
        ['not_sent', ['c', 'd']],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
