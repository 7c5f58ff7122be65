// A config file named by --config or PUSHCTL_CONFIG that is no regular file (docs/behaviour.md#trust): a FIFO
// no one writes hung pushctl for ever, deaf to SIGTERM and Ctrl-C (nothing waits on its signals while the
// settings load), and /dev/zero was read into hundreds of megabytes before failing. Either is refused at once,
// naming the path (exit 6). The built binary.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';

let work = '';
// A pushctl that hangs on the FIFO hears no SIGTERM: killed with SIGKILL when the test gives up on it.
const children = scratchPerTest('pushctl-config-special-', (dir) => (work = dir));
const spawned = { onSpawn: (child: (typeof children)[number]) => void children.push(child) };

describe('a config path that is no regular file', () => {
  it('a FIFO with no writer, by --config and by PUSHCTL_CONFIG: exit 6 naming it, nothing waited for', async () => {
    const fifo = join(work, 'pushctl.json');
    execFileSync('mkfifo', [fifo]);
    for (const [args, env] of [[['config', '--config', fifo], {}], [['config'], { PUSHCTL_CONFIG: fifo }]] as const) {
      const r = await runCli(args, { env: cleanEnv({ HOME: work, ...env }), cwd: work, ...spawned });
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toContain(`config file ${fifo} is not a regular file`);
    }
  });

  it('/dev/zero: exit 6 naming it', async () => {
    const r = await runCli(['config', '--config', '/dev/zero'], { env: cleanEnv({ HOME: work }), cwd: work, ...spawned });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain('config file /dev/zero is not a regular file');
  });

  it('a FIFO the search finds (.pushctlrc.json in the working directory): exit 6 naming it, and the fix', async () => {
    const fifo = join(work, '.pushctlrc.json');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(['config'], { env: cleanEnv({ HOME: work }), cwd: work, ...spawned });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`config file ${fifo} is not a regular file (it is a FIFO)`);
    expect(r.stderr).toContain('move it away');
  });
});
