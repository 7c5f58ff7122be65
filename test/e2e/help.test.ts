import { describe, expect, it } from 'vitest';
import { commandNames } from '../../src/cli.js';
import { runCli } from '../helpers/run-cli.js';

// The commands come from the program's own table, so a command added to it is held to the same rules here
// without anyone editing this file.
const COMMANDS = commandNames();

describe('help (built binary)', () => {
  it('lists every command at the top level', async () => {
    expect(COMMANDS).toEqual(expect.arrayContaining(['validate', 'send', 'dry-run', 'resend', 'serve', 'init', 'config', 'check', 'runs', 'schema', 'completion']));
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const listed = [...r.stdout.matchAll(/^ {2}([a-z][\w-]*)\b/gm)].map((m) => m[1]).filter((name) => name !== 'help');
    expect(listed).toEqual([...COMMANDS]);
  });

  for (const name of COMMANDS) {
    it(`${name} --help shows what it does, its options and examples, as \`help ${name}\` does`, async () => {
      const [r, viaHelp] = await Promise.all([runCli([name, '--help']), runCli(['help', name])]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: pushctl ${name}`);
      // A sentence of its own under the usage line, then its options.
      expect(r.stdout).toMatch(new RegExp(`^Usage: pushctl ${name}.*\\n\\n[a-z].{10,}`));
      expect(r.stdout).toContain('Options:');
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toMatch(new RegExp(`^  \\$ pushctl ${name}\\b`, 'm'));
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(r.stdout);
    });
  }

  it('with no command prints the help on stderr and exits 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: pushctl');
  });
});
