// A start of a run id that several runs share: the error names a few of them to pick from, not a month of runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateRun } from '../../../src/commands/shared/locate-run.js';

const dir = mkdtempSync(join(tmpdir(), 'pushctl-locate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('locateRun of an ambiguous start', () => {
  it('names the five newest of seven, and how many more', () => {
    const runs = join(dir, 'runs');
    mkdirSync(runs);
    const ids = Array.from({ length: 7 }, (_, i) => `20260101-00000${i}-abc${i}`);
    for (const id of ids) writeFileSync(join(runs, `${id}.jsonl`), '');
    expect(() => locateRun('2026', { cwd: dir, env: { PUSHCTL_JOURNAL_DIR: runs } })).toThrow(
      `"2026" matches 7 runs: ${ids.slice(2).reverse().join(', ')}, and 2 more`,
    );
  });
});
