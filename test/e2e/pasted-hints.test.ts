// A hint that prints a command to paste gives back, through a real shell, every value as the user gave it: a
// title with a dollar sign, a profile or app ID with a space, a path with a space. Each command is taken from
// the hint, its leading `pushctl` swapped for printf, and run by /bin/sh: the words printf prints are the
// words pushctl would get.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, runProcess } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-pasted-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The words the shell makes of `command` (which starts with `pushctl`), placeholders such as <id> filled in. */
async function shellWordsOf(command: string): Promise<string[]> {
  const filled = command.replace(/^pushctl /, `printf '%s\\n' `).replace(/<[a-z -]+>/g, 'X');
  const r = await runProcess('/bin/sh', ['-c', filled], { env: cleanEnv({ HOME: dir }), cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\n$/, '').split('\n');
}

const cases: { what: string; argv: string[]; command: RegExp; words: string[] }[] = [
  { what: 'send --dry-run with a title holding a dollar sign', argv: ['send', '--dry-run', '--all', '--title', '$5 off', '--base-url', 'http://127.0.0.1:9'], command: /^hint: (pushctl dry-run .*)$/m, words: ['dry-run', '--all', '--title', '$5 off', '--base-url', 'http://127.0.0.1:9'] },
  { what: 'config set of an app ID with a space', argv: ['config', 'set', 'appId', 'my app'], command: /set it with (pushctl init .*?) \(--force/, words: ['init', '--app-id', 'my app', '--yes', '--force'] },
  { what: 'a profile with a space and no config file', argv: ['config', '--profile', 'eu west'], command: /create it with: (pushctl init .*?), or point/, words: ['init', '--profile', 'eu west', '--app-id', 'X'] },
  { what: 'a --config path with a space that does not exist', argv: ['config', '--config', join('/tmp', 'no such dir', 'pushctl.json')], command: /create the file with: (pushctl init .*)$/m, words: ['init', '--config', join('/tmp', 'no such dir', 'pushctl.json')] },
];

describe('a command a hint prints, pasted into a shell', () => {
  for (const c of cases) {
    it(`${c.what}: gives the value as given`, async () => {
      const r = await runCli(c.argv, { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });
      const command = c.command.exec(r.stderr)?.[1];
      expect(command, r.stderr).toBeDefined();
      expect(await shellWordsOf(command!)).toEqual(c.words);
    });
  }
});
