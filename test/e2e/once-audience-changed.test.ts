// A cron's `--once` send killed half-way, and before its re-run the audience file gained a device (docs/behaviour.md#once):
// the key now stands for another audience, so the re-run refuses (exit 2). Its next step must not be a new key,
// which would send the whole audience again, those who already have it included: it is the resend that
// finishes the killed run with its own message and recipients. The built binary against `pushctl serve`.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { shellWords } from '../helpers/shell-words.js';
import { deliveredCounts } from '../helpers/record-lines.js';

const APP = { id: 'grown-app', secret: 'grown-S3CRET-a41c' };
let served!: ServedCli & { record: string };
let recordDir!: string;
let work!: string;
const children = scratchPerTest('pushctl-once-grown-', (dir) => (work = dir));

beforeAll(async () => {
  recordDir = mkdtempSync(join(tmpdir(), 'pushctl-once-grown-record-'));
  const record = join(recordDir, 'record.jsonl');
  // Answers after 100-200 ms: a run at a low rate is still sending when it is killed.
  served = { ...(await serveCli(['--app', `${APP.id}:${APP.secret}`, '--record', record, '--rate', '0', '--chaos', 'latency=100-200ms'])), record };
});
afterAll(async () => {
  await served.stop();
  rmSync(recordDir, { recursive: true, force: true });
});

function deliveries(): Map<string, number> {
  return deliveredCounts(served.record);
}

it('the refusal names the resend that finishes the killed run, and that command, run as printed, finishes it once', async () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `grown-${i}`);
  writeFileSync(join(work, 'audience.txt'), `${ids.join('\n')}\n`);
  writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ appId: APP.id, baseUrl: served.url, audiences: { everyone: { client_ids_file: 'audience.txt' } } }));
  const env = cleanEnv({ HOME: work, PUSHCTL_JOURNAL_DIR: join(work, 'runs'), PUSHCTL_APP_SECRET: APP.secret });
  const send = ['send', '--title', 'Release 5.0', '--to', 'everyone', '--once', 'release-5.0', '--batch-size', '100', '--rate', '8'];

  let child!: ChildProcess;
  const first = runCli(send, { env, cwd: work, onSpawn: (c) => children.push((child = c)) });
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (deliveries().size >= 500) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
  });
  child.kill('SIGKILL');
  expect((await first).signal).toBe('SIGKILL');
  const killed = readdirSync(join(work, 'runs')).find((f) => f.endsWith('.jsonl'))!.replace(/\.jsonl$/, '');
  expect(deliveries().size).toBeLessThan(ids.length);

  // A device registered meanwhile: the key's audience is another now.
  appendFileSync(join(work, 'audience.txt'), 'grown-new\n');
  const again = await runCli(send, { env, cwd: work });
  expect(again.code).toBe(2);
  expect(again.stderr).toContain(`run ${killed} used this key for another message or audience`);
  const hint = again.stderr.split('\n').find((line) => line.startsWith('hint: '))!;
  expect(hint).not.toMatch(/^hint: use a new key/);
  const command = /`(pushctl resend [^`]+)`/.exec(hint)?.[1];
  expect(command, hint).toBe(`pushctl resend ${killed}`);

  const resent = await runCli(shellWords(command!).slice(1), { env, cwd: work });
  expect(resent.code, resent.stderr).toBe(0);
  const counts = deliveries();
  expect(ids.filter((id) => (counts.get(id) ?? 0) > 1), 'delivered twice').toEqual([]);
  expect(counts.has('grown-new')).toBe(false);
}, 120_000);
