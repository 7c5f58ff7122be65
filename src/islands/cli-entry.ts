// What bin/pushctl.cjs requires: the main island, loaded through the code-cache loader.
import type { run as runMain } from '../main.js';
import { loadIsland } from './load-island.js';

export function run(argv: readonly string[]): Promise<number> {
  return (loadIsland('main') as { run: typeof runMain }).run(argv);
}
