// A directory pushctl makes (the journal's, the locks', a config file's) under /proc answers ENOENT at a level
// whose parent exists: Node's recursive mkdir tried again for ever, a core spinning and SIGTERM unheard. Each
// is refused at once with its documented exit code and the path. Linux only (/proc).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runProcess } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';

let dir: string;
const spinning = scratchPerTest('pushctl-make-dirs-', (made) => (dir = made));

const run = (args: string[]) => runProcess(process.execPath, [BIN, ...args], { cwd: dir, env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: 'demo-secret' }), onSpawn: (c) => spinning.push(c) });

describe.runIf(process.platform === 'linux')('a directory under /proc', () => {
  it('send --journal: exit 2 naming the journal (dry run against a closed port: refused before the wire)', async () => {
    const result = await run(['dry-run', '--base-url', 'http://127.0.0.1:9', '--app-id', 'a', '--all', '--title', 'x', '--journal', '/proc/pushctl-no-such-dir/j.jsonl']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/cannot create the run journal \/proc\/pushctl-no-such-dir\/j\.jsonl \(ENOENT\)/);
  }, 20_000);

  it('init --config: exit 6 naming the file, never a hang', async () => {
    const result = await run(['init', '--app-id', 'a', '--yes', '--config', '/proc/pushctl-no-such-dir/c.json']);
    // A path that cannot be written is a configuration error (exit 6), never 'a bug in pushctl' (exit 1).
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/cannot create the directory of \/proc\/pushctl-no-such-dir\/c\.json \(ENOENT\)\nhint: choose a --config path/);
  }, 20_000);
});
