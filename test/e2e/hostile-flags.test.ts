// Extreme and misleading flags (issue 11, "Input"): each a usage error (exit 2) naming the flag and its
// range, before anything is sent.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/scripted-server.js';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

const CANARY = 'canary-FLAGS-0b9d33';
let home: string;
let port: number;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'pushctl-flags-'));
  port = await closedPort();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

const send = (args: string[]) =>
  runCli(['send', '--app-id', 'a', '--base-url', `http://127.0.0.1:${port}`, '--max-attempts', '1', ...args], {
    env: cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_APP_SECRET: CANARY }),
    cwd: home,
  });

describe('numeric flags are range-checked', () => {
  it.each([
    [['--rate', '99999999999'], '--rate 99999999999 is out of range', '0 to 100000'],
    [['--concurrency', '0'], '--concurrency 0 is out of range', '1 to 1000'],
    [['--concurrency', '100000000000'], '--concurrency 100000000000 is out of range', '1 to 1000'],
    [['--batch-size', '1001'], '--batch-size 1001 is out of range', '1 to 1000'],
    [['--max-attempts', '6'], '--max-attempts 6 is out of range', '1 to 5'],
    [['--ttl', '9007199254740993'], '--ttl 9007199254740993 is out of range', '1 to 2147483647 seconds'],
    [['--timeout', '25d'], 'timeout 25d (flag --timeout) is longer than the 2147483647 ms', '--timeout 10s'],
    [['--timeout', '0'], 'timeout 0 (flag --timeout) is no time at all: every request would time out', '--timeout 10s'],
    [['--timeout', '0ms'], 'timeout 0ms (flag --timeout) is no time at all', '--timeout 10s'],
  ])('%j', async (flags, message, range) => {
    const r = await send(['--all', '--title', 'x', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${message}`);
    expect(r.stderr).toContain(range);
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('a value that looks like a flag', () => {
  it('is a usage error naming it', async () => {
    const r = await send(['--client-id', '--title', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client-id needs a value, but the next argument "--title" looks like a flag');
    expect(r.stderr).toContain('--client-id=--title');
  });

  it.each([['--title', '-d'], ['-f', '--all'], ['--app-id', '--title']])('%s %s too', async (flag, next) => {
    const r = await send([flag, next, '--all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${flag} needs a value`);
  });

  it('is not confused with a value that merely starts with a dash', async () => {
    const r = await runCli(['validate', '--all', '--title', '-5% off', '--desc', '- first item', '-f', '-'], {
      env: cleanEnv({ HOME: home }),
      cwd: home,
      input: '{"type":1,"time_to_live":60}',
    });
    expect(r.code, r.stderr).toBe(0);
  });

  it('is taken when written --client-id=--odd (the send then fails on the network, exit 5)', async () => {
    const r = await send(['--client-id=--odd', '--title', 'x']);
    expect(r.stderr).not.toContain('looks like a flag');
    expect(r.code).toBe(5);
  });
});

describe('an empty settings flag', () => {
  it.each([['--profile'], ['--app-id'], ['--base-url'], ['--timeout']])('%s "" is a usage error naming the flag and the next step', async (flag) => {
    const r = await send(['--all', '--title', 'x', flag, '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${flag} needs a non-empty value`);
    expect(r.stderr).toMatch(/\nhint: .*(give|leave)/);
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('"-" where pushctl writes a file', () => {
  // "-" is stdin for what pushctl reads (-f -) and stdout for schema --output; a report, a journal, a record and
  // a config file are files kept on disk, and were made under the name "-" in the working directory.
  const env = () => cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PUSHCTL_APP_SECRET: CANARY, PUSHCTL_JOURNAL_DIR: join(home, 'runs') });
  it.each([
    [['send', '--app-id', 'a', '--base-url', 'http://127.0.0.1:9', '--all', '--title', 'x', '--report', '-'], '--report', 'the report', '--report report.json'],
    [['send', '--app-id', 'a', '--base-url', 'http://127.0.0.1:9', '--all', '--title', 'x', '--journal', '-'], '--journal', 'the journal', '--journal run.jsonl'],
    [['runs', 'show', 'no-such-run', '--report', '-'], '--report', 'the report', '--report report.json'],
    [['serve', '--port', '0', '--record', '-'], '--record', 'the record', '--record messages.jsonl'],
    [['init', '--app-id', 'a', '--yes', '-c', '-'], '--config', 'the config file', '--config .pushctlrc.json'],
  ])('%j is a usage error naming the flag, and makes no file', async (args, flag, what, example) => {
    const cwd = mkdtempSync(join(home, 'dash-'));
    // A check that regressed would leave serve running: it is stopped before the test's own time is up.
    const r = await runCli(args, { env: env(), cwd, timeout: 20_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: ${flag} - would write ${what} to a file named "-"`);
    expect(r.stderr).toContain(`hint: give ${flag} the file's path, e.g. ${example}`);
    expect(existsSync(join(cwd, '-'))).toBe(false);
  });

  it.each([
    [['send', '--app-id', 'a', '--base-url', 'http://127.0.0.1:9', '--all', '--title', 'x']],
    [['runs']],
  ])('PUSHCTL_JOURNAL_DIR=- for %j is refused (exit 6), and makes no directory "-"', async (args) => {
    const cwd = mkdtempSync(join(home, 'dash-dir-'));
    const r = await runCli(args, { env: { ...env(), PUSHCTL_JOURNAL_DIR: '-' }, cwd, timeout: 20_000 });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain('error: PUSHCTL_JOURNAL_DIR=- would keep the run journals in a directory named "-"');
    expect(r.stderr).toContain('hint: set PUSHCTL_JOURNAL_DIR to a directory path, e.g. PUSHCTL_JOURNAL_DIR=.pushctl/runs, or unset it for the default');
    expect(existsSync(join(cwd, '-'))).toBe(false);
  });

  it.each([
    [['send', '--app-id', 'a', '--base-url', 'http://127.0.0.1:9', '--all', '--title', 'x', '-c', '-'], '--config', 'the config file', '--config .pushctlrc.json'],
    [['validate', '--all', '--title', 'x', '--config', '-'], '--config', 'the config file', '--config .pushctlrc.json'],
    [['send', '--app-id', 'a', '--base-url', 'http://127.0.0.1:9', '--all', '--title', 'x', '--app-secret-file', '-'], '--app-secret-file', 'the app secret', '--app-secret-file secret.txt, or pipe it to --app-secret-stdin'],
    [['serve', '--port', '0', '--apps', '-'], '--apps', 'the apps file', '--apps apps.json'],
    [['serve', '--port', '0', '--devices', '-'], '--devices', 'the devices', '--devices devices.csv'],
  ])('%j says stdin is not read there (exit 2), not that a file "-" is missing', async (args, flag, what, example) => {
    const r = await runCli(args, { env: env(), cwd: home, timeout: 20_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: ${flag} - would read ${what} from stdin, which ${flag} does not take`);
    expect(r.stderr).toContain(`hint: give ${flag} the file's path, e.g. ${example}`);
  });
});
