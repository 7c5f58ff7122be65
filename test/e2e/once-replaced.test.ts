// A `--once` run SIGKILLed while it wrote its plan sent nothing; the same command run again sends the key
// afresh in its place (docs/behaviour.md#once). From then on the cut-short run is no debt: `runs` and `runs
// show` name the run that replaced it, and never count its recipients as left nor tell to send again from
// the original input (which, done, would send the key's audience twice). The built binary, a real SIGKILL,
// `pushctl serve` counting deliveries.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { deliveredCounts } from '../helpers/record-lines.js';

const COUNT = 50_000;
let work!: string;
let served!: ServedCli & { record: string };
const children = scratchPerTest('pushctl-once-replaced-', (dir) => (work = dir));

beforeAll(async () => {
  const record = join(tmpdir(), `pushctl-once-replaced-${process.pid}.jsonl`);
  served = { ...(await serveCli(['--app', 'app:s3cret-replaced-9d', '--record', record, '--rate', '0'])), record };
});
afterAll(async () => {
  await served.stop();
  rmSync(served.record, { force: true });
});

/** How often each ID was delivered. */
function deliveries(): Map<string, number> {
  return deliveredCounts(served.record);
}

it("a run cut short while planning, replaced by the key's re-run: runs and runs show name the replacement and count nothing left", async () => {
  const ids = Array.from({ length: COUNT }, (_, i) => `replaced-${i}`);
  writeFileSync(join(work, 'ids.txt'), `${ids.join('\n')}\n`);
  const journals = join(work, 'runs');
  mkdirSync(journals, { mode: 0o700 });
  const env = cleanEnv({ HOME: work, PUSHCTL_JOURNAL_DIR: journals, PUSHCTL_APP_SECRET: 's3cret-replaced-9d' });
  const send = ['send', '--base-url', served.url, '--app-id', 'app', '--title', 'Release 3.0', '--client-ids-file', 'ids.txt', '--batch-size', '100', '--rate', '5000', '--once', 'release-3.0'];

  const child = spawn(process.execPath, [BIN, ...send], { cwd: work, env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
  children.push(child);
  const exit = new Promise<void>((resolve) => child.on('close', () => resolve()));
  // Stopped the moment its journal appears, then let on a little at a time until the header and some batch
  // records are on disk: each look is taken while it is stopped, so what it saw is what the SIGKILL leaves.
  await new Promise<void>((resolve) => {
    const watcher = watch(journals, (_event, name) => {
      if (!String(name).endsWith('.jsonl')) return;
      child.kill('SIGSTOP');
      watcher.close();
      resolve();
    });
  });
  const journal = () => join(journals, readdirSync(journals).find((f) => f.endsWith('.jsonl'))!);
  const linesNow = () => readFileSync(journal(), 'utf8').split('\n').length - 1;
  for (let step = 0; linesNow() < 3; step++) {
    expect(step, 'the send wrote no batch record in 2,000 short runs').toBeLessThan(2000);
    child.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 2));
    child.kill('SIGSTOP');
  }
  expect(linesNow(), 'the plan was already whole when the send was stopped').toBeLessThan(1 + COUNT / 100);
  child.kill('SIGKILL');
  await exit;
  const cut = readdirSync(journals).find((f) => f.endsWith('.jsonl'))!.replace(/\.jsonl$/, '');
  expect(deliveries().size).toBe(0);

  const again = await runCli(send, { env, cwd: work });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain(`run ${cut} was cut short while it wrote its plan, before anything was sent: sending afresh`);
  const counts = deliveries();
  expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
  const fresh = readdirSync(journals).find((f) => f.endsWith('.jsonl') && !f.startsWith(cut))!.replace(/\.jsonl$/, '');

  // runs: the cut-short run is replaced, and leaves nothing (its recipients are the fresh run's).
  const listed = JSON.parse((await runCli(['runs', '--json'], { env, cwd: work })).stdout) as { runs: { run_id: string; state: string; replaced_by?: string }[] };
  expect(listed.runs.find((r) => r.run_id === cut)).toMatchObject({ state: 'incomplete', replaced_by: fresh });
  const table = (await runCli(['runs'], { env, cwd: work })).stdout.split('\n').find((line) => line.startsWith(cut))!;
  expect(table).toMatch(new RegExp(`^${cut} +incomplete, replaced +0/\\d+ +- +Release 3.0$`));

  // runs show: names the run that replaced it; no advice to send the key again.
  const shown = await runCli(['runs', 'show', cut], { env, cwd: work });
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toContain(`replaced by run ${fresh}, which sent its whole input afresh under --once release-3.0\n`);
  expect(shown.stdout).toMatch(/^nothing left to send: the run that replaced it sent its recipients$/m);
  expect(shown.stdout).not.toContain('send again from the original input');
  const shownJson = JSON.parse((await runCli(['runs', 'show', cut, '--json'], { env, cwd: work })).stdout) as { run: { replaced_by?: string } };
  expect(shownJson.run.replaced_by).toBe(fresh);
  // Its resend is refused as before (nothing of it went out), naming the replacement, never "send again".
  const resend = await runCli(['resend', cut], { env, cwd: work });
  expect(resend.code).toBe(2);
  expect(resend.stderr).toContain(`run ${fresh} replaced it, sending its whole input afresh: nothing is left to send`);
  expect(resend.stderr).not.toContain('send again from the original input');
  expect(deliveries().size).toBe(COUNT);
  // The fresh run says which run it replaced.
  expect((await runCli(['runs', 'show', fresh], { env, cwd: work })).stdout).toContain(`replaces    run ${cut}`);
}, 120_000);
