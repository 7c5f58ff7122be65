// The TTY progress line. ora is loaded only when a terminal will show it, so pipes, CI logs, --json
// and --quiet never pay for it and never see control characters.
import type { TextSink } from '../context.js';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const silent: Progress = { update: () => {}, stop: () => {} };

export async function startProgress(sink: TextSink, enabled: boolean, text: string): Promise<Progress> {
  if (!enabled || sink.isTTY !== true) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: sink as unknown as NodeJS.WritableStream, discardStdin: false }).start();
  return {
    update: (t) => {
      spinner.text = t;
    },
    stop: () => {
      spinner.stop();
    },
  };
}
