// The TTY progress line. ora is loaded only when a terminal will show it, so pipes, CI logs, --json
// and --quiet never pay for it and never see control characters.
import type { TextSink } from '../context.js';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const silent: Progress = { update: () => {}, stop: () => {} };

export async function startProgress(sink: TextSink, enabled: boolean, text: string): Promise<Progress> {
  // A terminal that reports no width (a pseudo-terminal with no window) cannot be redrawn line by line.
  if (!enabled || sink.isTTY !== true || !sink.terminal || !(sink.terminal.columns > 0)) return silent;
  const { default: ora } = await import('ora');
  // isEnabled is our decision (a TTY), not ora's guess from the CI variable; stdin is left alone so
  // Ctrl-C still reaches the process as SIGINT.
  const spinner = ora({ text, stream: sink.terminal, isEnabled: true, discardStdin: false }).start();
  return {
    update: (t) => {
      spinner.text = t;
    },
    stop: () => {
      spinner.stop();
    },
  };
}
