// The whole lines of a JSON Lines file another process may be appending to (the emulator's --record): the
// part after the last newline may be a line still being written, so it is left for the next read.
import { existsSync, readFileSync } from 'node:fs';

export function wholeLines(path: string): string[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.pop();
  return lines.filter((line) => line !== '');
}

/** How many times the emulator's record (`serve --record`) says each client ID was delivered. */
export function deliveredCounts(record: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of wholeLines(record)) {
    const message = JSON.parse(line) as { delivered: boolean; body: { condition: { client_ids?: string[] } } };
    if (message.delivered) for (const id of message.body.condition.client_ids ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
