// The resend command a failed send prints, pasted as printed into a shell in another directory (a cron job's
// log read from a terminal in the home directory): it goes where the run went, with the config file the run
// was given by a relative `-c` (docs/behaviour.md#resend). The built binary against `pushctl serve`, whose
// chaos refuses every request at first (503), then none; deliveries counted on the emulator's side.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { shellWords } from '../helpers/shell-words.js';

const APP = { id: 'printed-app', secret: 'printed-S3CRET-5e0c' };
let served!: ServedCli;
let work!: string;
scratchPerTest('pushctl-resend-printed-', (dir) => (work = dir));

beforeAll(async () => {
  served = await serveCli(['--app', `${APP.id}:${APP.secret}`, '--rate', '0', '--chaos', '503=100%']);
});
afterAll(async () => {
  await served.stop();
});

const chaos = async (spec: string) => expect((await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: spec })).status).toBe(200);

it('a relative -c: the printed resend names the config file so that it works from any directory', async () => {
  await chaos('503=100%');
  const job = join(work, 'job');
  mkdirSync(job);
  // The config file holds the app and the emulator, as pushctl init writes it; the secret is in the environment.
  writeFileSync(join(job, 'release.pushctl.json'), JSON.stringify({ appId: APP.id, baseUrl: served.url }));
  const ids = Array.from({ length: 30 }, (_, i) => `printed-${i}`);
  const env = cleanEnv({ HOME: work, PUSHCTL_JOURNAL_DIR: join(work, 'runs'), PUSHCTL_APP_SECRET: APP.secret });
  const send = await runCli(['send', '-c', 'release.pushctl.json', '--title', 'Release 4.0', '--client-id', ids.join(','), '--batch-size', '10'], { env, cwd: job });
  expect(send.code, send.stderr).not.toBe(0);
  const printed = send.stderr.split('\n').map((line) => line.trim()).find((line) => line.startsWith('pushctl resend '))!;
  expect(printed, send.stderr).toBeDefined();

  await chaos('latency=1-2ms');
  const [, ...args] = shellWords(printed);
  const resent = await runCli(args, { env, cwd: work });
  expect(resent.code, resent.stderr).toBe(0);
  const messages = (await (await fetch(`${served.url}/v1/emulator/messages?app=${APP.id}`)).json()) as { messages: { delivered: boolean; body: { condition: { client_ids: string[] } } }[] };
  const delivered = messages.messages.filter((m) => m.delivered).flatMap((m) => m.body.condition.client_ids);
  expect(delivered.sort()).toEqual([...ids].sort());
}, 60_000);
