// Writes the V8 code cache of the CLI's islands (dist/*.cjs.v8, read by src/islands/load-island.ts) by
// running the built CLI the way it is used most: each run writes the cache of every island it loaded, with
// every function that run compiled, so the last run to load an island decides its cache. `send` comes last:
// it is the command whose start-up matters most (SPEC section 7), and it loads the main island too.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createEmulator } from '../dist/lib.js';

const BIN = fileURLToPath(new URL('../bin/pushctl.cjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'pushctl-train-'));
// Nothing from the builder's own settings, journal or terminal: the same run on every machine.
const env = {
  PATH: process.env.PATH,
  HOME: work,
  XDG_CONFIG_HOME: join(work, 'config'),
  PUSHCTL_JOURNAL_DIR: join(work, 'runs'),
  PUSHCTL_APP_SECRET: 'demo-secret',
  NO_COLOR: '1',
  PUSHCTL_BUILD_CODE_CACHE: '1',
};
// Asynchronous: the emulator lives in this process and must keep answering while the CLI runs.
const cli = (args) => promisify(execFile)(process.execPath, [BIN, ...args], { env, cwd: work });

const emulator = await createEmulator({ port: 0 });
try {
  const message = join(work, 'message.json');
  writeFileSync(message, JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Hello', desc: 'A small message', open_type: 1 } }));
  const ids = join(work, 'ids.txt');
  writeFileSync(ids, 'client-1\nclient-2\n');
  await cli(['--help']);
  await cli(['schema']);
  await cli(['runs']);
  await cli(['validate', '-f', message]);
  await cli(['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--client-ids-file', ids, '-f', message]);
  await cli(['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--client-id', 'client-1', '--title', 'Hi', '--desc', 'there']);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
console.error('wrote the V8 code cache of the CLI (dist/*.cjs.v8)');
