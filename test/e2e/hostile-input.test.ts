// Hostile input through the built CLI (issue 11, "Input" and "Fidelity"): each an invalid message (exit 3)
// with a clear line, never a crash; and what is kept or warned about.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-input-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return name;
};
const validate = (args: string[]) => runCli(['validate', ...args], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });

describe('validate with hostile files', () => {
  it('3,000 levels of nesting: exit 3 naming the limit', async () => {
    const text = `{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"x"},"data":{"a":${'['.repeat(3000)}${']'.repeat(3000)}}}`;
    const r = await validate(['-f', file('deep.json', text)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('nested deeper than 64 levels at line 1');
    expect(r.stderr).not.toContain('call stack');
  });

  it('invalid UTF-8 in a message file: exit 3 naming the line and byte', async () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "type": 1, "time_to_live": 60, "condition": {"type": 0},\n  "notification": {"title": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n}\n')]);
    const r = await validate(['-f', file('latin1.json', bytes)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('message file latin1.json is not valid UTF-8: byte 0xE9 at line 3, byte 33');
  });

  it('invalid UTF-8 in a client-ID file: exit 3 naming the line and byte', async () => {
    const r = await validate(['--title', 'x', '--client-ids-file', file('ids.txt', Buffer.concat([Buffer.from('one\ntw'), Buffer.from([0xff]), Buffer.from('o\n')]))]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('invalid UTF-8 in a client ID at line 2, byte 3');
  });

  it('a client-ID file that is a JSON array: says so and what to pass instead', async () => {
    const r = await validate(['--title', 'x', '--client-ids-file', file('ids.json', '["a","b"]\n')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('looks like a JSON array');
    expect(r.stderr).toContain("jq -r '.[]'");
  });

  // Each refusal of a client-ID input reads as every other error: one lower-case line, and a hint apart that says what to give.
  it.each([
    ['a JSON object that is not a report', '{"a":1}\n', 'the client-ID input is JSON but not a pushctl report (no "in_doubt" and "not_sent" lists)', 'give one client ID per line, or a report written by --report'],
    ['a "{" that does not parse', '{not json\n', 'the client-ID input starts with "{" but is not valid JSON: ', 'give one client ID per line, or a report written by --report'],
    ['a line past 64 KiB', `${'a'.repeat(70_000)}\n`, 'a line of the client-ID input is longer than 65536 bytes; it takes one client ID per line', 'check the file given to --client-ids-file: a client ID is far shorter'],
    ['a journal whose header is cut', '{"t":"header","format":"pushctl-journal",oops\n', 'the client-ID input looks like a run journal but has no header record', 'give the journal as pushctl wrote it, or one client ID per line'],
    ['a report with a line cut', '{\n  "version": 1,\n  "not_sent": [\n    {broken\n  ]\n}\n', 'the report has a line that is not valid JSON: ', 'give the report as pushctl wrote it, or one client ID per line'],
  ])('%s: exit 3, said as one line and a hint', async (name, text, message, hint) => {
    const r = await validate(['--title', 'x', '--client-ids-file', file(`ids-${name.replace(/\W+/g, '-')}.txt`, text)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`error: ${message}`);
    expect(r.stderr).toMatch(/^error: [^\n]*[^.]\n/m);
    expect(r.stderr).toContain(`hint: ${hint}\n`);
  });

  it('a NUL inside --client-id: exit 3', async () => {
    const r = await validate(['--title', 'x', '--client-id', 'a\u0001b']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('control character U+0001');
  });

  it('keeps -d __proto__=x and a __proto__ key of --data-file', async () => {
    const r = await validate(['--all', '--title', 'x', '-d', '__proto__=x', '--data-file', file('data.json', '{"__proto__":"y","k":"v"}'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout).body.data)).toBe('{"__proto__":"x","k":"v"}');
  });

  it('a notification with neither title nor desc is an error', async () => {
    const r = await validate(['--all']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('a notification needs a title or a desc');
  });

  it('button style is accepted with a warning that the service may refuse it', async () => {
    const r = await validate(['--all', '--title', 'x', '--style', 'button', '--button-text', 'Go']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the service may refuse it');
  });
});
