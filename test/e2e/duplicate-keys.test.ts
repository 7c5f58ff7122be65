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
