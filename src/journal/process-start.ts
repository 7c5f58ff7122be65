// Whether the process that wrote a journal is still running. A pid alone is not enough: after a kill, the
// system may give the same pid to another process, and the run would read as `running` forever. Linux says
// when each process started (`/proc/<pid>/stat`, field 22, clock ticks since boot); the journal records it
// beside the pid, and a live pid with another start time is another process. A killed process whose parent
// never reaps it (a container whose PID 1 is an application, not an init) keeps its pid as a zombie: it runs
// no code, so its run is killed and its locks are free.
import { readFileSync } from 'node:fs';

/** Fields 3 (the state letter) and 22 (the start, in clock ticks since boot) of /proc/<pid>/stat; undefined off Linux. */
function procStat(pid: number | 'self'): { state: string; startTicks: number | undefined } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces or parentheses: fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return { state: fields[0] ?? '', startTicks: Number.isSafeInteger(ticks) ? ticks : undefined };
  } catch {
    return undefined;
  }
}

/** When process `pid` started, in clock ticks since boot; undefined where /proc does not say (not Linux). */
export function processStartTicks(pid: number | 'self'): number | undefined {
  return procStat(pid)?.startTicks;
}

/** Whether the run's process is alive: its pid exists, is no zombie and, where recorded, started when the journal says. */
export function runProcessAlive(pid: unknown, pidStart: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else; anything else: it is gone.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  if (typeof pidStart !== 'number') return true;
  return stat?.startTicks === undefined || stat.startTicks === pidStart;
}
