// What a signal means to a run, for the CLI and the GitHub Action alike: SIGINT (Ctrl-C, a job's cancel),
// SIGTERM (a job's cancel or timeout) and SIGHUP (a dropped SSH session) mean the same. GitHub cancels with
// SIGINT then SIGTERM, so any second signal of any kind means "now".
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface StopSignals {
  /** Aborts at the first signal: no new requests; those in flight are waited for. */
  interrupt: AbortSignal;
  /** Aborts at the second: requests in flight are cut (they become unknown); the journal and report are still written. */
  stopNow: AbortSignal;
  /** Stops listening (the run is over). */
  dispose(): void;
}

/**
 * Listens for the stop signals: the first aborts `interrupt`, the second `stopNow` (and should anything still
 * hang, `exit(130)` five seconds later), the third calls `exit(130)` at once. `say` gets one line per signal.
 */
export function stopOnSignals(say: (line: string) => void, exit: (code: number) => void): StopSignals {
  const interrupt = new AbortController();
  const stopNow = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!interrupt.signal.aborted) {
      say(`\n${signal}: stopping: no new requests; waiting for those in flight (again to stop now)\n`);
      interrupt.abort();
      return;
    }
    if (!stopNow.signal.aborted) {
      say(`\n${signal}: stopping now: requests in flight become in doubt; writing the journal and report\n`);
      stopNow.abort();
      // Cut requests settle at once; should anything still hang, a third signal or this timer ends it.
      setTimeout(() => exit(130), 5000).unref();
      return;
    }
    exit(130);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return {
    interrupt: interrupt.signal,
    stopNow: stopNow.signal,
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}
