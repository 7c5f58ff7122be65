// Node.js 22+ keeps the CLI's compiled code on disk (bin/pushctl.cjs turns module.enableCompileCache on):
// an optimisation only. Where the cache cannot be written (a read-only home, a path that is a file) the
// CLI runs exactly as it does without one, and says nothing about it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runProcess } from '../helpers/run-cli.js';
import { NODE24 } from '../helpers/node24.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-compile-cache-'));
  writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }));
  writeFileSync(join(dir, 'not-a-folder'), '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// This Node.js, and Node.js 24 when the tests have one (skipped here without it: see test/helpers/node24.ts).
const nodes = [...new Set([process.execPath, ...(NODE24 ? [NODE24] : [])])];

describe.each(nodes)('a compile cache that cannot be written (%s)', (node) => {
  it('changes nothing a user sees', async () => {
    const env = (extra: Record<string, string>) => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), ...extra });
    const usual = await runProcess(node, [BIN, 'validate', '-f', 'message.json'], { cwd: dir, env: env({ NODE_COMPILE_CACHE: join(dir, 'cache') }) });
    const broken = await runProcess(node, [BIN, 'validate', '-f', 'message.json'], { cwd: dir, env: env({ NODE_COMPILE_CACHE: join(dir, 'not-a-folder', 'cache') }) });
    expect(usual.code, usual.stderr).toBe(0);
    expect(broken).toEqual(usual);
  });
});
