// Broken config files in the working directory (issue 11, "Secrets"): exit 6 naming the file, line and
// column, and never a word of the file's content, on stderr or in --json.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const CANARY = 'canary-CONFIG-5e77a1';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-badconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCli(args, { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });

describe('a malformed config file', () => {
  it.each([
    ['package.json', `{\n  "name": "x",\n  "pushctl": { "appId": "a", "appSecret": "${CANARY}" },\n  oops\n}\n`, 'line 4, column 3'],
    ['.pushctlrc.json', `{\n  "appId": "a",\n  "appSecret": "${CANARY}",,\n}\n`, 'line 3, column 39'],
    ['.pushctlrc.yaml', `appId: a\nappSecret: ${CANARY}\n  bad: [\n`, 'line 3'],
  ])('%s: exit 6, the file, line and column, no content', async (name, text, where) => {
    writeFileSync(join(dir, name), text);
    for (const json of [false, true]) {
      const r = await cli(['send', '--all', '--title', 'x', ...(json ? ['--json'] : [])]);
      expect(r.code).toBe(6);
      const all = r.stdout + r.stderr;
      expect(all).toContain(join(dir, name));
      expect(all).toContain(where);
      expect(all).not.toContain(CANARY);
      expect(all).not.toContain('appSecret');
      expect(all).not.toContain('internal error');
      if (json) expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exit_code: 6 });
    }
  });
});
