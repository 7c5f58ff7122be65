// `pushctl completion <shell>` against the command tree as users see it: the commands and long flags are
// read from the built CLI's own --help output (an independent view of the tree), and every one must be
// completed, under its own command, by every shell's script.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript, SHELLS, type CompletionTree } from '../../src/output/completion.js';
import { runCli } from '../helpers/run-cli.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const SECTION_END = { bash: /^ {6};;$/m, zsh: /^ {10};;$/m, fish: /$^/ };

/** Commands listed by `pushctl --help`, and the long flags each `pushctl <command> --help` lists. */
async function treeFromHelp(): Promise<Map<string, string[]>> {
  const top = await runCli(['--help']);
  const commands = top.stdout
    .split('Commands:\n')[1]!
    .split('\n\n')[0]!
    .split('\n')
    .flatMap((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1] ?? []);
  const tree = new Map<string, string[]>();
  for (const command of commands) {
    // `pushctl help --help` shows the program's help, whose flags belong to the top level.
    if (command === 'help') {
      tree.set(command, []);
      continue;
    }
    const help = await runCli([command, '--help']);
    expect(help.code, help.stderr).toBe(0);
    tree.set(command, help.stdout.split('\n').flatMap((line) => /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line)?.[1] ?? []));
  }
  return tree;
}

/** The part of a script that completes one command. */
function section(shell: (typeof SHELLS)[number], script: string, command: string): string {
  if (shell === 'fish') return script.split('\n').filter((l) => l.includes(`'__fish_seen_subcommand_from ${command}'`)).join('\n');
  const indent = shell === 'bash' ? '    ' : '        ';
  const start = script.indexOf(`\n${indent}${command})\n`);
  expect(start, `${shell}: no section for ${command}`).toBeGreaterThan(-1);
  const rest = script.slice(start + 1);
  return rest.slice(0, rest.search(SECTION_END[shell]));
}

const longFlagNamed = (shell: (typeof SHELLS)[number], text: string, flag: string) =>
  shell === 'fish' ? new RegExp(`-l ${flag.slice(2)}( |$)`, 'm').test(text) : new RegExp(`(^|[\\s'{,|])${flag}(?![\\w-])`).test(text);

describe('pushctl completion', () => {
  let tree: Map<string, string[]>;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pushctl-completion-'));
    tree = await treeFromHelp();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the help output lists the commands this test relies on', () => {
    expect([...tree.keys()]).toEqual(expect.arrayContaining(['send', 'dry-run', 'validate', 'serve', 'init', 'config', 'schema', 'completion']));
    expect(tree.get('send')).toEqual(expect.arrayContaining(['--file', '--client-ids-file', '--report', '--no-validate', '--help']));
  });

  for (const shell of SHELLS) {
    it(`${shell}: names every command, and every long flag under its own command`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      for (const [command, flags] of tree) {
        const text = section(shell, r.stdout, command);
        for (const flag of flags) expect(longFlagNamed(shell, text, flag), `${shell} ${command} ${flag}`).toBe(true);
      }
      // The top level offers the commands themselves.
      for (const command of tree.keys()) expect(r.stdout).toContain(command);
    });
  }

  it('bash: the script parses (bash -n) and completes commands, flags, files and choices', async () => {
    const file = join(dir, 'pushctl.bash');
    writeFileSync(file, (await runCli(['completion', 'bash'])).stdout);
    execFileSync('bash', ['-n', file]);
    // Simulates what bash does on TAB: fills COMP_WORDS and calls the completion function.
    const complete = (...words: string[]) =>
      execFileSync(
        'bash',
        ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _pushctl; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', file, 'pushctl', ...words],
        { cwd: dir, encoding: 'utf8' },
      ).split('\n').filter(Boolean);
    expect(complete('se')).toEqual(['send', 'serve']);
    expect(complete('send', '--ti')).toEqual(['--title', '--timeout']);
    expect(complete('send', '--title', '')).toEqual([]);
    expect(complete('send', '-f', 'pushctl.b')).toEqual(['pushctl.bash']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('help', 'dr')).toEqual(['dry-run']);
  });

  // Enumerated values and subcommands (issue 31): [words typed, what TAB offers].
  const offers: [string[], string[]][] = [
    [['send', '--type', ''], ['notification', 'data', '1', '2']],
    [['send', '-t', 'd'], ['data']],
    [['send', '--style', ''], ['system', 'button']],
    [['send', '--region', ''], ['global', 'india']],
    [['init', '--region', 'i'], ['india']],
    [['runs', ''], ['show']],
    [['runs', 'show', '--r'], ['--report']],
    [['runs', '--limit', '5', 'show', '--j'], ['--json']],
  ];

  it.each(offers)('bash: pushctl %j offers %j', async (words, expected) => {
    const file = join(dir, 'pushctl.bash');
    writeFileSync(file, (await runCli(['completion', 'bash'])).stdout);
    const offered = execFileSync(
      'bash',
      ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _pushctl; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', file, 'pushctl', ...words],
      { cwd: dir, encoding: 'utf8' },
    ).split('\n').filter(Boolean);
    expect(offered).toEqual(expected);
  });

  it.skipIf(!has('fish')).each(offers)('fish: pushctl %j offers %j', async (words, expected) => {
    const file = join(dir, 'pushctl-offers.fish');
    writeFileSync(file, (await runCli(['completion', 'fish'])).stdout);
    // complete -C prints what TAB would offer for a command line, one "value<TAB>description" a line.
    const line = ['pushctl', ...words].join(' ');
    const offered = execFileSync('fish', ['-c', 'source $argv[1]; complete -C $argv[2]', file, line], { cwd: dir, encoding: 'utf8' })
      .split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect([...offered].sort()).toEqual([...expected].sort());
  });

  it.skipIf(!has('zsh'))('zsh: the values of --type, --style and --region, and runs show with its own options', async () => {
    const script = (await runCli(['completion', 'zsh'])).stdout;
    expect(section('zsh', script, 'send')).toContain(':type:(notification data 1 2)');
    expect(section('zsh', script, 'send')).toContain(':style:(system button)');
    expect(section('zsh', script, 'send')).toContain(':region:(global india)');
    const runs = script.slice(script.indexOf('\n        runs)\n'));
    expect(runs).toMatch(/'1:command:\(\(show\\:print one run/);
    expect(runs.slice(runs.indexOf('\n                show)\n'))).toContain('--report');
  });

  it.skipIf(!has('zsh'))('zsh: the script parses (zsh -n)', async () => {
    const file = join(dir, '_pushctl');
    writeFileSync(file, (await runCli(['completion', 'zsh'])).stdout);
    execFileSync('zsh', ['-n', file]);
  });

  it.skipIf(!has('fish'))('fish: the script parses (fish -n)', async () => {
    const file = join(dir, 'pushctl.fish');
    writeFileSync(file, (await runCli(['completion', 'fish'])).stdout);
    execFileSync('fish', ['-n', file]);
  });

  it('an unknown shell is a usage error naming the choices', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it('quotes descriptions and choices safely for each shell', () => {
    const odd = "it's [odd]: $HOME `x` \\ \"q\"";
    const tree: CompletionTree = {
      name: 'pushctl',
      options: [],
      commands: [{ name: 'x', description: odd, options: [{ flags: '--mode <mode>', long: '--mode', description: odd, takesValue: true, valueName: 'mode', choices: ["a'b", 'c'] }] }],
    };
    const file = join(dir, 'odd.bash');
    writeFileSync(file, completionScript('bash', tree));
    execFileSync('bash', ['-n', file]);
    const out = execFileSync('bash', ['-c', `source "$1"; COMP_WORDS=(pushctl x --mode ''); COMP_CWORD=3; _pushctl; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', file], { encoding: 'utf8' });
    expect(out.split('\n').filter(Boolean)).toEqual(["a'b", 'c']);
    expect(completionScript('fish', tree)).toContain(`-d 'it\\'s [odd]: $HOME \`x\` \\\\ "q"'`);
    expect(completionScript('zsh', tree)).toContain(`'[it'\\''s \\[odd\\]\\: $HOME \`x\` \\\\ "q"]:mode:(a'\\''b c)'`);
  });
});
