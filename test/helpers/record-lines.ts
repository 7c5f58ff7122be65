// The whole lines of a JSON Lines file another process may be appending to (the emulator's --record): the
// part after the last newline may be a line still being written, so it is left for the next read.
import { existsSync, readFileSync } from 'node:fs';

export function wholeLines(path: string): string[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line !== '');
}
