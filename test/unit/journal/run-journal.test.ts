import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchPlan } from '../../../src/client/batches.js';
import { RunJournal } from '../../../src/journal/run-journal.js';

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
});
