// The TTY progress line. ora is loaded only when a terminal will show it, so pipes, CI logs, --json
// and --quiet never pay for it and never see control characters.
import type { TextSink } from '../context.js';
import { wantsColor } from './style.js';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const silent: Progress = { update: () => {}, stop: () => {} };

/** The width a terminal that reports none (0 columns, as `script` gives) is drawn at. */
const FALLBACK_COLUMNS = 80;

export async function startProgress(sink: TextSink, enabled: boolean, text: string, env: Record<string, string | undefined> = {}): Promise<Progress> {
  if (!enabled || sink.isTTY !== true || !sink.terminal) return silent;
  const terminal = sink.terminal;
  // A pseudo-terminal with no window reports 0 columns; ora would then draw nothing at all.
  if (!(terminal.columns > 0)) terminal.columns = FALLBACK_COLUMNS;
  const { default: ora } = await import('ora');
  // isEnabled is our decision (a TTY), not ora's guess from the CI variable; stdin is left alone so
  // Ctrl-C still reaches the process as SIGINT. NO_COLOR (and FORCE_COLOR=0) apply to the spinner too.
  const spinner = ora({ text, stream: terminal, isEnabled: true, discardStdin: false, color: wantsColor(sink, env) ? 'cyan' : false }).start();
  let drawn = false;
  return {
    update: (t) => {
      spinner.text = t;
      // ora draws on its own timer (every 80 ms); the first count is drawn at once, so a run shorter than a
      // frame (five batches go out in 60 ms) still shows how far it got.
      if (!drawn) {
        drawn = true;
        spinner.render();
      }
    },
    stop: () => {
      spinner.stop();
    },
  };
}

/**
 * Requests per second over the last `windowMs`, as the progress line shows it: never more than were really
 * made, so the first batches of a run do not read as thousands per second. `times` are completion times in
 * milliseconds since the run started, oldest first; `now` is the same clock.
 */
export function movingRate(times: readonly number[], now: number, windowMs = 2000): number {
  const from = now - windowMs;
  let count = 0;
  for (let i = times.length - 1; i >= 0 && times[i]! > from; i--) count++;
  // Over less than a second of run time, divide by a whole second: a burst of 8 is "8 req/s", not 800.
  return count / (Math.max(Math.min(windowMs, now), 1000) / 1000);
}
