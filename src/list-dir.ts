import { readdirSync } from 'node:fs';

/** A directory's names; none when it is missing or unreadable, which every caller takes as nothing there. */
export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
