// `npm run demo`: the quick start. Starts the built-in emulator, sends a real notification through the
// built CLI exactly as a user would, and shows the answer. No account, no network beyond loopback.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../dist/lib.js';

const bin = fileURLToPath(new URL('../bin/pushctl.cjs', import.meta.url));
const emulator = await createEmulator({ port: 0 });
const args = ['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--all', '--title', 'Hello from pushctl', '--desc', 'Sent to the local emulator'];
console.error(`emulator: ${emulator.url} (app demo-app, secret demo-secret)`);
console.error(`$ PUSHCTL_APP_SECRET=demo-secret pushctl ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`);
// Asynchronous on purpose: the emulator lives in this process and must keep answering while the CLI runs.
const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, PUSHCTL_APP_SECRET: 'demo-secret' }, stdio: 'inherit' });
const [status] = await once(child, 'close');
const stored = emulator.messages('demo-app').at(-1);
if (stored) console.error(`the emulator holds it: ${JSON.stringify(stored.body)}`);
await emulator.close();
process.exitCode = status ?? 1;
