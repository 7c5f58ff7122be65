// Completing what the config file names (docs/behaviour.md#completion): `--to <TAB>` offers the audiences and
// `--profile <TAB>` the profiles of the config file found from the working directory, in every shell. The
// script asks the `pushctl` on PATH (here a shim running the built CLI) when TAB is pressed; a name is a
// value, never shell code, even when the config file was written by someone else.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/run-cli.js';

let dir: string;
let env: NodeJS.ProcessEnv;
/** Would exist if completing ran a name as code. */
let pwned: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-completion-names-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'pushctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pushctl'), 0o755);
  pwned = join(dir, 'pwned');
  const evil = `$(touch ${pwned})`;
  writeFileSync(
    join(dir, '.pushctlrc.json'),
    JSON.stringify({
      appId: 'app',
      audiences: { 'my-phones': { client_ids: ['a'] }, testers: { client_ids: ['b'] }, [evil]: { client_ids: ['c'] }, "it's": { client_ids: ['d'] } },
      profiles: { global: {}, india: { audiences: { 'india-only': 'all' } } },
    }),
  );
  env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PATH: `${bin}:${process.env.PATH ?? ''}`, PUSHCTL_PROFILE: '' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = async (shell: string) => {
  const file = join(dir, `pushctl.${shell}`);
  writeFileSync(file, (await runCli(['completion', shell])).stdout);
  return file;
};

async function bash(...words: string[]): Promise<string[]> {
  const file = await script('bash');
  return execFileSync('bash', ['-c', `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _pushctl; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', file, 'pushctl', ...words], { cwd: dir, env, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

async function fish(...words: string[]): Promise<string[]> {
  const file = await script('fish');
  return execFileSync('fish', ['-c', 'source $argv[1]; complete -C $argv[2]', file, ['pushctl', ...words].join(' ')], { cwd: dir, env, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0]!);
}

describe('completing names from the config file', () => {
  it('completion --names lists them, one a line, for the scripts to read', async () => {
    const audiences = await runCli(['completion', '--names', 'audiences'], { cwd: dir, env });
    expect(audiences.code, audiences.stderr).toBe(0);
    expect(audiences.stdout.split('\n').filter(Boolean).sort()).toEqual([`$(touch ${pwned})`, "it's", 'my-phones', 'testers'].sort());
    const profiles = await runCli(['completion', '--names', 'profiles'], { cwd: dir, env });
    expect(profiles.stdout.split('\n').filter(Boolean)).toEqual(['global', 'india']);
    // With the profile chosen in the environment, its own audiences come too, as --to would read them.
    const india = await runCli(['completion', '--names', 'audiences'], { cwd: dir, env: { ...env, PUSHCTL_PROFILE: 'india' } });
    expect(india.stdout.split('\n')).toContain('india-only');
  });

  it('--names in a directory without a config file, or with a broken one, lists nothing and says nothing', async () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    const none = await runCli(['completion', '--names', 'audiences'], { cwd: empty, env: { ...env, HOME: empty } });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    writeFileSync(join(empty, '.pushctlrc.json'), '{ "appId": ');
    const broken = await runCli(['completion', '--names', 'profiles'], { cwd: empty, env: { ...env, HOME: empty } });
    expect([broken.code, broken.stdout, broken.stderr]).toEqual([0, '', '']);
  });

  it('completion with neither a shell nor --names still names the shells', async () => {
    const r = await runCli(['completion'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give <shell>: bash, zsh or fish, e\.g\. pushctl completion bash/);
  });

  it('bash: --to and --profile offer the names, matched by what is typed; no name runs as code', async () => {
    expect(await bash('send', '--to', 'my')).toEqual(['my-phones']);
    expect((await bash('send', '--to', '')).sort()).toEqual([`$(touch ${pwned})`, "it's", 'my-phones', 'testers'].sort());
    expect(await bash('dry-run', '--profile', 'in')).toEqual(['india']);
    expect(existsSync(pwned)).toBe(false);
  });

  it('fish: --to and --profile offer the names; no name runs as code', async () => {
    expect(await fish('send', '--to', 'te')).toEqual(['testers']);
    expect((await fish('send', '--profile', '')).sort()).toEqual(['global', 'india']);
    expect((await fish('validate', '--to', '')).sort()).toContain("it's");
    expect(existsSync(pwned)).toBe(false);
  });

  it('zsh: --to and --profile ask _pushctl_names, which offers each name as a value; no name runs as code', async () => {
    const file = await script('zsh');
    execFileSync('zsh', ['-n', file]);
    const text = (await runCli(['completion', 'zsh'])).stdout;
    expect(text).toMatch(/--to'\[[^\]]*\]:[^:']*:_pushctl_names audiences/);
    expect(text).toMatch(/--profile'\[[^\]]*\]:[^:']*:_pushctl_names profiles/);
    // compadd and compdef exist only inside zsh's completion system: stand-ins print what would be offered.
    const offered = execFileSync('zsh', ['-c', 'compadd() { print -rl -- "$@" }; compdef() { : }; source $1; _pushctl_names audiences', 'zsh', file], { cwd: dir, env, encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '' && line !== '--');
    expect(offered.sort()).toEqual([`$(touch ${pwned})`, "it's", 'my-phones', 'testers'].sort());
    expect(existsSync(pwned)).toBe(false);
  });
});
