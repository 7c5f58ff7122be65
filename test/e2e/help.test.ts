import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('help (built binary)', () => {
  it('lists every command at the top level', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const name of ['validate', 'send', 'dry-run', 'serve', 'init', 'config', 'schema', 'completion']) expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  for (const name of ['validate', 'send', 'dry-run', 'serve', 'init', 'config', 'schema', 'completion']) {
    it(`${name} --help shows its options and examples`, async () => {
      const r = await runCli([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: pushctl ${name}`);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain('  $ pushctl');
    });
  }

  it('`help <command>` shows the same as `<command> --help`', async () => {
    const [a, b] = await Promise.all([runCli(['help', 'send']), runCli(['send', '--help'])]);
    expect(a.stdout).toBe(b.stdout);
  });

  it('with no command prints the help on stderr and exits 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: pushctl');
  });
});
