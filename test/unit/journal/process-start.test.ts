// Whether a run's process is alive (src/journal/process-start.ts), against real processes: a killed process
// whose parent never reaps it (a container whose PID 1 is an application, not an init) stays a zombie, and
// a zombie sends nothing: its run is killed, and its locks are free.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTicks, runProcessAlive } from '../../../src/journal/process-start.js';

const linux = process.platform === 'linux';
let parent: ReturnType<typeof spawn> | undefined;
afterEach(() => {
  if (parent?.pid !== undefined && parent.exitCode === null) process.kill(parent.pid, 'SIGKILL');
});

/** The state letter of /proc/<pid>/stat (R, S, Z...), or undefined once the pid is gone. */
const stateOf = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

describe.runIf(linux)('runProcessAlive', () => {
  it('is true for a running process and false for a zombie: killed, never reaped by its parent', async () => {
    // `sleep 30` takes the place of the shell and never waits for its child, as a PID 1 that is no init.
    parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>((resolve) => parent!.stdout!.once('data', (d: Buffer) => resolve(d.toString()))));
    const started = processStartTicks(pid);
    expect(runProcessAlive(pid, started)).toBe(true);
    process.kill(pid, 'SIGKILL');
    while (stateOf(pid) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runProcessAlive(pid, started)).toBe(false);
  });
});
