// A journal edited by hand is data (docs/behaviour.md#trust): `runs`, which reads a closed run from its first
// and last lines, never prints counts that do not add up or that disagree with what `runs show` reads from
// the records. The built binary against the emulator on loopback.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';

const SECRET = 'edited-S3CR3T-5e1f';

const bench = journalBench('pushctl-edited-', SECRET, (work) => {
  writeFileSync(join(work, 'ids.txt'), Array.from({ length: 40 }, (_, i) => `e-${i}`).join('\n'));
});

const cli = (args: string[]): Promise<CliResult> => bench.cli(args);
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;

/** A sent run of 40 recipients in 4 batches, then its closing record rewritten by `edit`. */
async function editedRun(edit: (summary: Record<string, Record<string, number>>) => void): Promise<string> {
  const sent = await cli(['send', '--title', 'Edited', '--client-ids-file', 'ids.txt', '--batch-size', '10', '--base-url', bench.emulator.url, '--app-id', 'app', '--json']);
  expect(sent.code, sent.stderr).toBe(0);
  const path = join(bench.journals, readdirSync(bench.journals).find((f) => f.endsWith('.jsonl'))!);
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const end = JSON.parse(lines.at(-1)!) as { summary: Record<string, Record<string, number>> };
  edit(end.summary);
  lines[lines.length - 1] = JSON.stringify(end);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return json(sent).run_id as string;
}

describe('runs of a journal whose closing record was edited', () => {
  const cases: { name: string; edit: (summary: Record<string, Record<string, number>>) => void }[] = [
    { name: 'counts that do not add up', edit: (s) => ((s.recipients!.accepted = 999), (s.batches!.in_doubt = -3)) },
    { name: 'totals other than its plan', edit: (s) => ((s.recipients!.total = 50), (s.recipients!.not_sent = 10)) },
    { name: 'a count that is no number', edit: (s) => (s.batches!.accepted = 'all' as unknown as number) },
  ];
  for (const c of cases) {
    it(`${c.name}: the list reads the records, as runs show does`, async () => {
      const runId = await editedRun(c.edit);
      const listed = (json(await cli(['runs', '--json'])).runs as { run_id: string; summary: unknown }[]).find((r) => r.run_id === runId)!;
      const shown = json(await cli(['runs', 'show', runId, '--json'])).run as { summary: unknown; state: string };
      expect(shown).toMatchObject({ state: 'sent', summary: { recipients: { total: 40, accepted: 40, rejected: 0, in_doubt: 0, not_sent: 0 } } });
      expect(listed.summary).toEqual(shown.summary);
      expect((await cli(['runs'])).stdout).toMatch(new RegExp(`${runId}\\s+sent\\s+40/40\\s+-`));
    });
  }
});

describe('a journal whose header was edited to hold fields of the wrong kind', () => {
  const edits: [string, unknown][] = [
    ['argv', [1, { a: 2 }]],
    ['argv', 'send --all'],
    ['started_at', 5],
    ['once', { key: 'k' }],
    ['parent', 5],
    ['app_id', 7],
    ['host', null],
    ['message', null],
    ['variants', { fr: null }],
    ['pid', 'x'],
    // A run that resent itself would be its own family's root and resend, "resent" by itself.
    ['parent', 'itself'],
  ];
  for (const [field, value] of edits) {
    it(`${field}: ${JSON.stringify(value)} is named as a journal error (exit 2), never a bug, and the list carries on`, async () => {
      const runId = await editedRun(() => {});
      const path = join(bench.journals, `${runId}.jsonl`);
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      lines[0] = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), [field]: value === 'itself' ? runId : value });
      writeFileSync(path, `${lines.join('\n')}\n`);
      for (const args of [['runs', 'show', runId], ['runs', 'show', path, '--json'], ['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app', '--dry-run']]) {
        const r = await cli(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(2);
        expect(r.stderr + r.stdout).toContain(`header's ${field}`);
      }
      const listed = await cli(['runs', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const again = await cli(['send', '--title', 'Edited', '--client-ids-file', 'ids.txt', '--batch-size', '10', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', 'edited']);
      expect(again.code, again.stderr).toBe(0);
    });
  }
});

describe('--once and a journal of its key that cannot be read as a run', () => {
  for (const [field, value] of [['started_at', undefined], ['argv', 'send'], ['message', null]] as [string, unknown][]) {
    it(`${field} ${value === undefined ? 'removed' : `as ${JSON.stringify(value)}`}: refuses the key (exit 2) naming the journal, and sends nothing again`, async () => {
      const send = () => cli(['send', '--title', 'Keyed', '--client-ids-file', 'ids.txt', '--batch-size', '10', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', 'keyed', '--json']);
      const first = await send();
      expect(first.code, first.stderr).toBe(0);
      const path = join(bench.journals, `${json(first).run_id as string}.jsonl`);
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      lines[0] = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), [field]: value });
      writeFileSync(path, `${lines.join('\n')}\n`);
      const before = bench.emulator.messages('app').length;
      const again = await send();
      expect(again.code, again.stdout).toBe(2);
      expect((json(again).error as { message: string }).message).toContain(`${path} holds this key but cannot be read as a run: its header's ${field}`);
      expect(bench.emulator.messages('app').length).toBe(before);
    });
  }
});
