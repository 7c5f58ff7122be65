// A `--once` key is proved by its journals, not by the fingerprint they claim (docs/behaviour.md#trust): a key's
// journal edited after it was written — another message under the same fingerprint, or recipients taken out of
// its plan — never makes a re-run send a message the user did not give, nor skip a recipient the journal does
// not show reached. The re-run refuses the key, naming the journal. The built binary against the emulator.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';

const SECRET = 'proof-S3CR3T-77a1';

const bench = journalBench('pushctl-once-proof-', SECRET, (work) => {
  writeFileSync(join(work, 'ids.txt'), Array.from({ length: 40 }, (_, i) => `p-${i}`).join('\n'));
});

const cli = (args: string[]): Promise<CliResult> => bench.cli(args);
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;
const send = (key: string) => cli(['send', '--title', 'Release 2.0', '--client-ids-file', 'ids.txt', '--batch-size', '10', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', key, '--json']);
type Line = Record<string, unknown>;

/** Sends under `key`, then rewrites its journal's lines with `edit`; returns the journal's path. */
async function editedKey(key: string, edit: (lines: Line[]) => Line[]): Promise<string> {
  const first = await send(key);
  expect(first.code, first.stderr).toBe(0);
  const path = join(bench.journals, `${json(first).run_id as string}.jsonl`);
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
  writeFileSync(path, `${edit(lines).map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}

describe('--once and a journal of its key edited under the same fingerprint', () => {
  it('another message, its run made to read as killed: the re-run refuses the key, and never sends the journal\'s message', async () => {
    const path = await editedKey('proof-message', (lines) => {
      const header = lines[0]!;
      header.message = { ...(header.message as Line), notification: { title: 'Not what you typed' } };
      // Its first batch's attempt kept, the rest and the closing record gone: a killed run, resumed.
      return lines.filter((l) => l.t === 'header' || l.t === 'batch' || l.b === 0);
    });
    const before = bench.emulator.messages('app').length;
    const again = await send('proof-message');
    expect(again.code, again.stdout).toBe(2);
    expect((json(again).error as { message: string }).message).toContain(path);
    expect(bench.emulator.messages('app').length).toBe(before);
  });

  it('a batch taken out of its plan (totals made to agree): the re-run refuses the key rather than skip those recipients', async () => {
    const path = await editedKey('proof-plan', (lines) => {
      const header = lines[0]!;
      header.recipients = 30;
      header.batches = 3;
      // Batch 3 and its attempts gone, and the closing record with them: the run reads as killed, all sent.
      return lines.filter((l) => l.b !== 3 && l.t !== 'end');
    });
    const before = bench.emulator.messages('app').length;
    const again = await send('proof-plan');
    expect(again.code, again.stdout).toBe(2);
    expect(json(again).skipped).toBeUndefined();
    expect((json(again).error as { message: string }).message).toContain(path);
    expect(bench.emulator.messages('app').length).toBe(before);
  });

  it('a journal that claims to resend the key\'s run and lists a stranger: the re-run refuses the key, and sends the stranger nothing', async () => {
    let root = '';
    // The key's run killed after its first batch, then a journal added beside it, as its resend, with a
    // recipient the command never named and never sent to.
    await editedKey('proof-stranger', (lines) => {
      root = lines[0]!.run_id as string;
      return lines.filter((l) => l.t !== 'end' && !((l.t === 'start' || l.t === 'outcome') && l.b !== 0));
    });
    const forged = join(bench.journals, '20991231-235959-abcd.jsonl');
    const header = { ...(JSON.parse(readFileSync(join(bench.journals, `${root}.jsonl`), 'utf8').split('\n')[0]!) as Line), run_id: '20991231-235959-abcd', parent: root, recipients: 1, batches: 1 };
    writeFileSync(forged, `${JSON.stringify(header)}\n${JSON.stringify({ t: 'batch', b: 0, ids: ['stranger'] })}\n`);
    const before = bench.emulator.messages('app').length;
    const again = await send('proof-stranger');
    expect(again.code, again.stdout).toBe(2);
    expect((json(again).error as { message: string }).message).toContain('"stranger"');
    expect(bench.emulator.messages('app').length).toBe(before);
  });

  it('an unedited key is still found done, and a killed one resumed', async () => {
    await editedKey('proof-honest', (lines) => lines);
    const again = await send('proof-honest');
    expect(again.code, again.stderr).toBe(0);
    expect(json(again).skipped).toBe(true);
    // Killed after its first batch: the re-run sends the other three, and a third run finds the key done.
    await editedKey('proof-killed', (lines) => lines.filter((l) => l.t !== 'end' && !((l.t === 'start' || l.t === 'outcome') && l.b !== 0)));
    const before = bench.emulator.messages('app').length;
    const resumed = await send('proof-killed');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(bench.emulator.messages('app').length).toBe(before + 3);
    const third = await send('proof-killed');
    expect(json(third).skipped, third.stderr).toBe(true);
  });
});
