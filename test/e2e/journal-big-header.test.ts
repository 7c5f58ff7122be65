// A journal's header holds the run's whole message, which may be long (a title of a million characters is a
// warning, not an error; a message file may be 4 MiB): a header past a megabyte is still read
// (docs/behaviour.md#journal). It read as no journal at all: `runs` said "no runs yet" beside it, and a
// `--once` re-run sent the same announcement again. The built binary against the emulator on loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';

const SECRET = 'big-header-S3CR3T-2d7a';

const bench = journalBench('pushctl-big-header-', SECRET, (work) => {
  const message = { type: 1, time_to_live: 60, notification: { title: 'T'.repeat(1_500_000), desc: 'long' } };
  writeFileSync(join(work, 'big.json'), JSON.stringify(message));
});

const cli = (args: string[]): Promise<CliResult> => bench.cli(args);

describe('a run whose message makes its journal header longer than a megabyte', () => {
  it('is listed by runs, and a --once re-run finds it done and sends nothing', async () => {
    const send = () => cli(['send', '-f', 'big.json', '--client-id', 'a', '--base-url', bench.emulator.url, '--app-id', 'app', '--once', 'big-1', '--json']);
    const first = await send();
    expect(first.code, first.stderr).toBe(0);
    const runId = (JSON.parse(first.stdout) as { run_id: string }).run_id;
    const before = bench.emulator.messages('app').length;
    const again = await send();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ skipped: true });
    expect(bench.emulator.messages('app').length).toBe(before);
    const listed = await cli(['runs', '--json']);
    expect((JSON.parse(listed.stdout) as { runs: { run_id: string }[] }).runs.map((r) => r.run_id)).toEqual([runId]);
  });

  it("resend's preview clips the title as runs show does, never a line of a million and a half characters", async () => {
    const first = await cli(['send', '-f', 'big.json', '--client-id', 'a', '--base-url', bench.emulator.url, '--app-id', 'app', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const runId = (JSON.parse(first.stdout) as { run_id: string }).run_id;
    const preview = await cli(['resend', runId, '--dry-run', '--base-url', bench.emulator.url, '--app-id', 'app']);
    expect(preview.code, preview.stderr).toBe(0);
    const said = preview.stdout + preview.stderr;
    expect(said).toContain(`run ${runId} (TTT`);
    expect(Math.max(...said.split('\n').map((line) => line.length))).toBeLessThan(400);
  });
});

