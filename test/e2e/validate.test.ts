import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/run-cli.js';

describe('pushctl validate (built binary)', () => {
  it('accepts a valid file: exit 0, the normalised body on stdout, notes on stderr', async () => {
    const r = await runCli(['validate', '-f', 'valid.json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.condition.targeting).toEqual({ country: ['US', 'GB'], brand: ['INFINIXMOBILE'] });
    expect(body.notification.open_type).toBe('1');
    expect(r.stderr).toMatch(/^valid/);
    expect(r.stderr).toContain('condition.targeting.country[0]: "us" → "US" (country codes are upper case)');
  });

  it('rejects an invalid file: exit 3, every error with its path and fix, nothing on stdout', async () => {
    const r = await runCli(['validate', '-f', 'invalid.json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('time_to_live: must be a whole number, not the string "3600" — write 3600 without quotes');
    expect(r.stderr).toContain('condition.targeting.country[0]: "UK" is not an ISO 3166-1 alpha-2 country code — use GB');
    expect(r.stderr).toContain('notification.titel: unknown field "titel" — did you mean "title"?');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('reads the message from stdin with -f -', async () => {
    const r = await runCli(['validate', '-f', '-', '--json'], { input: readFileSync(`${FIXTURES}valid.json`, 'utf8') });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.valid).toBe(true);
    expect(doc.body.type).toBe(1);
    expect(doc.notes.length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
  });

  it('builds a message from flags only', async () => {
    const r = await runCli(['validate', '--client-id', 'a', 'b,c', '--client-ids-file', 'ids.txt', '--type', 'data', '-d', 'k=v', '--ttl', '15m', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).body).toEqual({
      type: 2,
      time_to_live: 900,
      condition: { type: 2, client_ids: ['a', 'b', 'c', 'id-1', 'id-2', 'id-3'] },
      data: { k: 'v' },
    });
  });

  it('fills --var placeholders, and names an unfilled one (exit 3)', async () => {
    const ok = await runCli(['validate', '-f', 'template.json', '--var', 'version=2.1.0', '--var', 'notes=Faster sends', '--json']);
    expect(ok.code).toBe(0);
    const body = JSON.parse(ok.stdout).body;
    expect(body.notification).toEqual({ title: 'Version 2.1.0 is out', desc: 'Faster sends' });
    expect(body).not.toHaveProperty('$schema');
    const missing = await runCli(['validate', '-f', 'template.json', '--var', 'version=2.1.0']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('unfilled placeholder {{notes}} at notification.desc');
  });

  it('names the file, line and column of a JSON syntax error (exit 3)', async () => {
    const r = await runCli(['validate', '-f', 'syntax-error.json']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'error: message file syntax-error.json is not valid JSON: trailing comma at line 3, column 21\n' +
        'hint: remove the comma at line 3, column 21: JSON allows no comma after the last entry\n',
    );
  });

  it('treats warnings as errors under --strict', async () => {
    const loose = await runCli(['validate', '--all', '--title', 'x', '--icon', 'i.png']);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain('notification.icon: has no effect with system style');
    const strict = await runCli(['validate', '--all', '--title', 'x', '--icon', 'i.png', '--strict']);
    expect(strict.code).toBe(3);
  });

  it('exits 2 with a suggestion for an unknown flag or command', async () => {
    const flag = await runCli(['validate', '--tittle', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--tittle'");
    expect(flag.stderr).toContain('--title');
    const command = await runCli(['validat']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('validate');
  });

  it('exits 2 for conflicting recipients and 3 for a missing file, without a stack trace', async () => {
    const conflict = await runCli(['validate', '--all', '--client-id', 'a']);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr.trim().split('\n')[0]).toMatch(/^error: --all and --client-id/);
    const missing = await runCli(['validate', '-f', 'nope.json']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('cannot read message file nope.json: no such file');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints help with examples, and the version', async () => {
    const help = await runCli(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
