// `--journal` and `--report` name files, and neither makes a directory (docs/behaviour.md#journal, #reports):
// a mistyped folder is refused before anything is sent (exit 2, naming the path and the missing directory),
// never a folder tree made where the user did not look. The runs directory itself is pushctl's to make.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const SECRET = 'dirs-S3CR3T-9a1c';
let work: string;
let emulator: Emulator;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret: SECRET }] });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.clear();
  work = mkdtempSync(join(tmpdir(), 'pushctl-dirs-'));
  return () => rmSync(work, { recursive: true, force: true });
});

const send = (extra: string[]) =>
  runCli(['send', '--base-url', emulator.url, '--app-id', 'app', '--title', 'Hi', '--client-id', 'd-1', ...extra], {
    env: cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: join(work, 'runs') }),
    cwd: work,
  });

it.each([
  ['--journal', 'runz/2026/run.jsonl', /cannot create the run journal \S+runz\/2026\/run\.jsonl \(ENOENT\)/],
  ['--report', 'reportz/2026/report.json', /--report reportz\/2026\/report\.json cannot be written \(ENOENT\)/],
])('%s in a directory that does not exist: exit 2, nothing sent, no directory made', async (flag, path, says) => {
  const result = await send([flag, path]);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(says);
  expect(result.stderr).toContain(`hint: the directory ${join(work, path.split('/')[0]!, '2026')} does not exist: create it first, or give ${flag} a path in an existing directory`);
  expect(existsSync(join(work, path.split('/')[0]!))).toBe(false);
  expect(emulator.messages('app')).toHaveLength(0);
});

it('the runs directory is made when it is missing (mode 700): it is pushctl\'s own', async () => {
  const result = await send([]);
  expect(result.code, result.stderr).toBe(0);
  expect(existsSync(join(work, 'runs'))).toBe(true);
});
