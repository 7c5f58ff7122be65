// The emulator under load (bench/emulator-load.mjs: the emulator in its own process, rate limit off, 20,000
// small requests from 50 clients, then 1,000 requests of 1,000 client IDs). No target: information beside
// the emulator figures of docs/behaviour.md#performance.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'emulator under load';
export const target = null;
export const timeoutMs = 200_000;

export async function measure(h) {
  const scratch = join(h.ROOT, '.bench-tmp');
  const hadScratch = existsSync(scratch);
  let r;
  try {
    r = await h.run(h.node, [join(h.ROOT, 'bench', 'emulator-load.mjs'), '--json'], { timeoutMs: 190_000 });
  } finally {
    // It bundles the emulator into .bench-tmp/ (git-ignored); leave the tree as it was.
    if (!hadScratch) rmSync(scratch, { recursive: true, force: true });
  }
  let doc;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    throw new Error(`emulator-load.mjs gave no JSON (exit ${r.code ?? r.signal}): ${r.stderr.slice(0, 300)}`);
  }
  const phases = doc.phases ?? [];
  return {
    measured: phases.map((p) => `${p.name}: ${Math.round(p.requestsPerSecond)} req/s, ${p.errors} errors, RSS ${p.rssAfterMB} MB`).join('; '),
    details: phases,
  };
}
