// A key given twice in a message file (docs/behaviour.md#validation): JSON.parse keeps the last, so the first
// value was dropped without a word — two "title" lines after a merge sent one of them, and the reader could
// not tell which. pushctl now says so, naming the key, its lines and the value sent. The built binary.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-dup-keys-'));
  return () => rmSync(work, { recursive: true, force: true });
});

describe('a key given twice in a message file', () => {
  it('is named with both lines and the value sent; one given once is not', async () => {
    const text = ['{', '  "type": 1,', '  "time_to_live": 60,', '  "condition": { "type": 0 },', '  "notification": {', '    "title": "Old title",', '    "desc": "d",', '    "title": "New title"', '  }', '}'].join('\n');
    writeFileSync(join(work, 'm.json'), text);
    const r = await runCli(['validate', '-f', 'm.json', '--json'], { cwd: work });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { body: { notification: { title: string } }; notes: { path: string; rule: string; message: string }[] };
    expect(doc.body.notification.title).toBe('New title');
    expect(doc.notes).toContainEqual(expect.objectContaining({ path: 'notification.title', rule: 'duplicate-key', message: expect.stringContaining('lines 6 and 8') }));
    const human = await runCli(['validate', '-f', 'm.json'], { cwd: work });
    expect(human.stdout + human.stderr).toContain('notification.title');
    writeFileSync(join(work, 'once.json'), text.replace('    "title": "Old title",\n', ''));
    const once = JSON.parse((await runCli(['validate', '-f', 'once.json', '--json'], { cwd: work })).stdout) as { notes: { rule: string }[] };
    expect(once.notes.map((n) => n.rule)).not.toContain('duplicate-key');
  });
});

describe('a key given twice on the command line', () => {
  it('-d key=value twice: named with both values and the one sent; the same value twice is no mistake', async () => {
    const r = await runCli(['validate', '--all', '-d', 'channel=beta', '-d', 'build=7', '-d', 'channel=stable', '--json'], { cwd: work });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { body: { data: Record<string, string> }; notes: { path: string; rule: string; message: string }[] };
    expect(doc.body.data).toEqual({ channel: 'stable', build: '7' });
    expect(doc.notes).toContainEqual({ path: 'data.channel', rule: 'duplicate-key', message: expect.stringMatching(/--data.*"beta".*"stable".*the last one is sent/) });
    const same = JSON.parse((await runCli(['validate', '--all', '-d', 'a=1', '-d', 'a=1', '--json'], { cwd: work })).stdout) as { notes: { rule: string }[] };
    expect(same.notes.map((n) => n.rule)).not.toContain('duplicate-key');
  });

  it('--var key=value twice: named likewise', async () => {
    writeFileSync(join(work, 'm.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'v{{version}}', desc: 'd' } }));
    const r = await runCli(['validate', '-f', 'm.json', '--var', 'version=1.4', '--var', 'version=1.5', '--json'], { cwd: work });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { body: { notification: { title: string } }; notes: { path: string; rule: string; message: string }[] };
    expect(doc.body.notification.title).toBe('v1.5');
    expect(doc.notes).toContainEqual(expect.objectContaining({ rule: 'duplicate-key', path: 'vars.version', message: expect.stringMatching(/--var.*"1.4".*"1.5".*the last one fills \{\{version\}\}/) }));
  });
});
