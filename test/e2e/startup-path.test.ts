// What the built CLI loads on its way to the answer. Start-up is measured by `npm run bench`, not here; this
// pins the decisions behind it, which a stray import would undo without failing anything else: the CLI
// never starts Node's ES module loader, and a send loads neither node:fs/promises nor perf_hooks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0 });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-startup-'));
  // Loaded with --require before the CLI: at exit, the list of Node's own modules the process loaded.
  writeFileSync(join(dir, 'record.cjs'), "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n");
  writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const out = join(dir, `modules-${args[0]}.txt`);
  const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), PUSHCTL_APP_SECRET: 'demo-secret', NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`, MODULES_OUT: out });
  const r = await runCli(args, { env, cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

describe('the start-up path of the built CLI', () => {
  it('a one-message send: no ES module loader, no node:fs/promises, no perf_hooks', async () => {
    const modules = await modulesLoadedBy(['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--client-id', 'device-1', '--title', 'Hi', '--desc', 'there']);
    expect(modules).toContain('NativeModule http');
    expect(modules).not.toContain('NativeModule internal/modules/esm/loader');
    expect(modules).not.toContain('NativeModule fs/promises');
    expect(modules).not.toContain('NativeModule perf_hooks');
  });

  it('validate and --help: no ES module loader, and no node:http', async () => {
    for (const args of [['validate', '-f', join(dir, 'message.json')], ['--help']]) {
      const modules = await modulesLoadedBy(args);
      expect(modules, args.join(' ')).not.toContain('NativeModule internal/modules/esm/loader');
      expect(modules, args.join(' ')).not.toContain('NativeModule http');
    }
  });
});
