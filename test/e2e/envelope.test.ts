// One --json envelope (issue 12): every command's success and failure output is checked against the JSON
// Schema the build publishes (dist/envelope.schema.json), and its keys are snake_case all the way down.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../../dist/envelope.schema.json', import.meta.url)), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

let dir: string;
let emu: Emulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-envelope-'));
  emu = await createEmulator({ port: 0, rate: 0, maxClientIds: 2 });
  writeFileSync(join(dir, 'bad.json'), '{"type": 1, "notification": {"title": "x", "small_icon_color": "red"}}');
  writeFileSync(join(dir, 'ids.txt'), 'a\nb\nc\nd\n');
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_APP_ID: 'demo-app', PUSHCTL_JOURNAL_DIR: join(dir, 'runs') });
const at = () => ['--base-url', emu.url];

/** Keys under these are the user's (message fields, data keys), not pushctl's. */
const FREE = new Set(['body', 'message', 'data', 'targeting']);
function nonSnakeKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonSnakeKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(/^[a-z][a-z0-9_]*$/.test(key) ? [] : [`${path}.${key}`]),
    ...(FREE.has(key) ? [] : nonSnakeKeys(inner, `${path}.${key}`)),
  ]);
}

const CASES: [string, () => string[], number][] = [
  ['validate, valid', () => ['validate', '--all', '--title', 'x', '--json'], 0],
  ['validate, invalid message', () => ['validate', '-f', 'bad.json', '--json'], 3],
  ['validate, unreadable file', () => ['validate', '-f', 'missing.json', '--json'], 3],
  ['send, accepted', () => ['send', ...at(), '--all', '--title', 'x', '--json'], 0],
  ['send, a partial failure', () => ['send', ...at(), '--client-ids-file', 'ids.txt', '--batch-size', '3', '--title', 'x', '--json'], 7],
  ['send, rejected', () => ['send', ...at(), '--client-id', 'a,b,c', '--title', 'x', '--json'], 4],
  ['send, no secret', () => ['send', '--base-url', 'http://127.0.0.1:9', '--app-id', 'nope', '--all', '--title', 'x', '--json'], 6],
  ['dry-run, accepted', () => ['dry-run', ...at(), '--all', '--title', 'x', '--json'], 0],
  ['config', () => ['config', '--json'], 0],
  ['check, accepted', () => ['check', ...at(), '--json'], 0],
  ['a stray argument', () => ['send', '--all', 'Hello world', '--json'], 2],
  ['init, written', () => ['init', '--app-id', 'demo-app', '--yes', '--config', 'init.json', '--json'], 0],
  ['runs', () => ['runs', '--json'], 0],
  ['runs show, no such run', () => ['runs', 'show', 'nope', '--json'], 2],
  ['an unknown option', () => ['validate', '--bogus', '--json'], 2],
  ['an unknown option of serve', () => ['serve', '--json'], 2],
];

describe('every command prints the one --json envelope', () => {
  for (const [name, argv, exit] of CASES) {
    it(`${name}: exit ${exit}`, async () => {
      const r = await runCli(argv(), { env: name === 'send, no secret' ? { ...env(), PUSHCTL_APP_SECRET: undefined } : env(), cwd: dir });
      expect(r.code, r.stderr).toBe(exit);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(Object.keys(doc).slice(0, 2)).toEqual(['ok', 'exit_code']);
      expect(doc.exit_code).toBe(exit);
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(nonSnakeKeys(doc)).toEqual([]);
    });
  }

  it('a failed batched send states the outcome and the code hint (21006 → --batch-size)', async () => {
    const r = await runCli(['send', ...at(), '--client-id', 'a,b,c', '--title', 'x', '--json'], { env: env(), cwd: dir });
    const doc = JSON.parse(r.stdout) as { error: { message: string; hint: string }; batches: { hint?: string }[] };
    expect(doc.error.message).toContain('21006');
    expect(doc.error.hint).toContain('--batch-size');
    expect(doc.batches[0]!.hint).toContain('--batch-size');
  });

  it('validate --country gb,us --json lists each value it normalised, at its own path', async () => {
    const r = await runCli(['validate', '--title', 'Hi', '--country', 'gb,us', '--json'], { env: env(), cwd: dir });
    const doc = JSON.parse(r.stdout) as { notes: { path: string; message: string }[] };
    expect(doc.notes).toContainEqual(expect.objectContaining({ path: 'condition.targeting.country[0]', message: '"gb" → "GB" (country codes are upper case)' }));
    expect(doc.notes).toContainEqual(expect.objectContaining({ path: 'condition.targeting.country[1]' }));
  });
});
