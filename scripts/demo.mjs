// `npm run demo`: the quick start. Starts the built-in emulator, sends a real notification through the
// built CLI exactly as a user would, shows the answer, and keeps the emulator running until Ctrl-C, so the
// command it prints and the inbox page it names still work. No account, no network beyond loopback.
//
// The demo's own send keeps its run journal in a temporary directory, removed on exit: a demo must not
// leave runs in the user's real state directory (`pushctl runs` would list them). `--once` sends and stops
// at once, printing nothing that would need the emulator afterwards (for scripts and tests).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../dist/lib.js';

const bin = fileURLToPath(new URL('../bin/pushctl.cjs', import.meta.url));
const stayUp = !process.argv.includes('--once');
const journals = mkdtempSync(join(tmpdir(), 'pushctl-demo-'));
const emulator = await createEmulator({ port: 0 });
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  await emulator.close();
  rmSync(journals, { recursive: true, force: true });
  process.exitCode = code;
};

const args = ['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--all', '--title', 'Hello from pushctl', '--desc', 'Sent to the local emulator'];
const shown = args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ');
console.error(`emulator: ${emulator.url} (app demo-app, secret demo-secret)`);
console.error(`$ PUSHCTL_APP_SECRET=demo-secret pushctl ${shown}`);
// Asynchronous on purpose: the emulator lives in this process and must keep answering while the CLI runs.
const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_JOURNAL_DIR: journals }, stdio: 'inherit' });
const [status] = await once(child, 'close');
const stored = emulator.messages('demo-app').at(-1);
if (stored) console.error(`the emulator holds it: ${JSON.stringify(stored.body)}`);
if (!stayUp || status !== 0) {
  await stop(status ?? 1);
} else {
  // The command as the user can paste it from the repository, while this emulator is still up.
  const cli = relative(process.cwd(), bin) || bin;
  console.error('');
  console.error(`The emulator keeps running until you press Ctrl-C. Meanwhile, open ${emulator.url}/ to see the push as a phone shows it,`);
  console.error('or send another from a second terminal in this directory:');
  console.error(`  PUSHCTL_APP_SECRET=demo-secret node ${cli} ${shown.replace('Hello from pushctl', 'Hello again')}`);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error('\nstopping the emulator');
      void stop(0);
    });
  }
}
