import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { init } from '../../../src/commands/init/run.js';
import type { InitOptions } from '../../../src/commands/init/options.js';
import { printInitOutcome } from '../../../src/output/init.js';
import { ExitCode } from '../../../src/errors.js';
import { loadConfigFile } from '../../../src/settings/load.js';
import { testCtx, useSandbox } from './helpers.js';
import { rejectionOf } from '../../helpers/cli-error.js';

// The command as the CLI runs it: run, then print; the exit code.
async function initCommand(options: InitOptions, ctx: Parameters<typeof init>[1]): Promise<number> {
  const outcome = await init(options, ctx);
  printInitOutcome(outcome, options, ctx);
  return outcome.exitCode;
}

const canary = 'CANARY-init-9b2e';

const box = useSandbox();

const ctxFor = (options: { stdin?: string; tty?: boolean; answers?: string[]; env?: Record<string, string | undefined> } = {}) =>
  testCtx({ cwd: box.project, env: options.env ?? box.env, stdin: options.stdin, tty: options.tty, answers: options.answers });

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
const json = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;


describe('pushctl init (non-interactive)', () => {
  it('writes .pushctlrc.json in cwd, which the loader then finds', async () => {
    const ctx = ctxFor();
    const outcome = await init({ appId: 'my-app', region: 'india', yes: true }, ctx);
    const file = path.join(box.project, '.pushctlrc.json');
    expect(outcome).toMatchObject({ path: file, created: true, keys: ['appId', 'region'], secretStored: false, profile: null });
    expect(await json(file)).toEqual({ appId: 'my-app', region: 'india' });
    printInitOutcome(outcome, {}, ctx);
    expect(ctx.out()).toContain(`created ${file}`);
    expect(ctx.err()).toContain('the app secret is not stored');
    expect((await loadConfigFile({ cwd: box.project, env: box.env }))?.config).toEqual({ appId: 'my-app', region: 'india' });
  });

  it('with the secret already in the environment, says sends read it there, not to set it', async () => {
    const ctx = ctxFor({ env: { ...box.env, PUSHCTL_APP_SECRET: canary } });
    const outcome = await init({ appId: 'my-app', yes: true }, ctx);
    printInitOutcome(outcome, {}, ctx);
    expect(ctx.err()).toContain('the app secret is not stored: sends read it from PUSHCTL_APP_SECRET (set here), or from --app-secret-file <path>');
    expect(ctx.err()).not.toContain(canary);
  });

  it('defaults the region to global', async () => {
    await init({ appId: 'a' }, ctxFor());
    expect(await json(path.join(box.project, '.pushctlrc.json'))).toEqual({ appId: 'a', region: 'global' });
  });

  it.skipIf(process.platform === 'win32')('writes mode 600 when the file holds a secret', async () => {
    await box.write('home/project/secret.txt', `${canary}\n`);
    const ctx = ctxFor();
    const outcome = await init({ appId: 'a', appSecretFile: 'secret.txt', yes: true }, ctx);
    expect(outcome.secretStored).toBe(true);
    expect(await modeOf(outcome.path)).toBe(0o600);
    expect(outcome.mode).toBe(0o600);
    expect(await json(outcome.path)).toMatchObject({ appSecret: canary });
    printInitOutcome(outcome, {}, ctx);
    expect(ctx.err()).toContain('.gitignore');
    expect(ctx.out() + ctx.err()).not.toContain(canary);
  });

  it('writes to --config', async () => {
    const outcome = await init({ appId: 'a', config: 'conf/pushctl.json' }, ctxFor());
    expect(outcome.path).toBe(path.join(box.project, 'conf', 'pushctl.json'));
    expect(await json(outcome.path)).toEqual({ appId: 'a', region: 'global' });
  });

  it('writes to the user config directory with --global', async () => {
    const outcome = await init({ appId: 'a', global: true }, ctxFor());
    expect(outcome.path).toBe(path.join(box.home, '.config', 'pushctl', 'config.json'));
    expect((await loadConfigFile({ cwd: box.project, env: box.env }))?.filepath).toBe(outcome.path);
  });

  it('refuses to overwrite without --force, and replaces with it', async () => {
    await init({ appId: 'first' }, ctxFor());
    const error = await rejectionOf(init({ appId: 'second' }, ctxFor()));
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toContain('already has settings');
    expect(error.hint).toContain('--force');
    const file = path.join(box.project, '.pushctlrc.json');
    expect((await json(file)).appId).toBe('first');
    const outcome = await init({ appId: 'second', force: true }, ctxFor());
    expect(outcome.created).toBe(false);
    expect((await json(file)).appId).toBe('second');
  });

  it('adds a profile beside existing settings without --force, keeping them', async () => {
    await init({ appId: 'top', region: 'india' }, ctxFor());
    const outcome = await init({ appId: 'ci-app', profile: 'ci' }, ctxFor());
    expect(outcome.keys).toEqual(['profiles.ci.appId']);
    expect(await json(outcome.path)).toEqual({ appId: 'top', region: 'india', profiles: { ci: { appId: 'ci-app' } } });
    expect((await rejectionOf(init({ appId: 'again', profile: 'ci' }, ctxFor()))).message).toContain('already has profile "ci"');
    await init({ appId: 'again', profile: 'ci', force: true }, ctxFor());
    expect(await json(outcome.path)).toMatchObject({ appId: 'top', profiles: { ci: { appId: 'again' } } });
  });

  it('refuses to merge into a file that is not JSON unless --force', async () => {
    await box.write('home/project/.pushctlrc.json', 'appId: yaml\n');
    expect((await rejectionOf(init({ appId: 'a' }, ctxFor()))).message).toContain('not a JSON object');
    await init({ appId: 'a', force: true }, ctxFor());
    expect(await json(path.join(box.project, '.pushctlrc.json'))).toEqual({ appId: 'a', region: 'global' });
  });

  it.each([
    [{ yes: true }, ExitCode.usage, 'nothing to write', 'pass --app-id <id>'],
    // A region is a setting like the base URL: refused as send refuses it, exit 6 naming where it came from.
    [{ appId: 'a', region: 'eu' }, ExitCode.config, 'unknown region "eu" (from flag --region)', 'valid regions: global, india'],
    [{ appId: 'a', config: 'pushctl.config.js' }, ExitCode.usage, 'cannot write', 'choose a path such as .pushctlrc.json'],
    [{ appId: 'a', config: 'x.json', global: true }, ExitCode.usage, '--config and --global cannot be used together', 'drop one: --global writes the user config file, --config the file it names'],
    // Each refusal says the next step apart from what is wrong, as every error does.
    [{ appId: 'a', config: '.' }, ExitCode.config, ' (EISDIR)', 'give --config the path of a file, not a directory'],
  ])('refuses %j', async (options, exitCode, words, hint) => {
    const error = await rejectionOf(init(options, ctxFor()));
    expect(error.exitCode).toBe(exitCode);
    expect(error.message).toContain(words);
    expect(error.hint).toContain(hint);
  });

  it('warns about a plain-http base URL to a remote host but writes it', async () => {
    const ctx = ctxFor();
    const outcome = await init({ baseUrl: 'http://push.internal:8080' }, ctx);
    expect(outcome.warnings.join('\n')).toContain('--insecure');
    expect(await json(outcome.path)).toMatchObject({ baseUrl: 'http://push.internal:8080' });
    // init returns what it did; the command prints it, the warnings on stderr.
    expect(ctx.out() + ctx.err()).toBe('');
    const printed = ctxFor();
    expect(await initCommand({ baseUrl: 'http://push.internal:8080', force: true }, printed)).toBe(0);
    expect(printed.err()).toContain('--insecure');
  });

  it('prints the outcome as JSON', async () => {
    const ctx = ctxFor();
    await initCommand({ appId: 'a', json: true }, ctx);
    expect(JSON.parse(ctx.out())).toMatchObject({ keys: ['appId', 'region'], created: true });
  });
});

describe('pushctl init (interactive)', () => {
  it('asks for the app ID, region and secret, hiding the secret', async () => {
    const ctx = ctxFor({ tty: true, answers: ['asked-app', 'india', 'y', canary] });
    const outcome = await init({}, ctx);
    expect(outcome.keys).toEqual(['appId', 'region', 'appSecret']);
    expect(await json(outcome.path)).toEqual({ appId: 'asked-app', region: 'india', appSecret: canary });
    if (process.platform !== 'win32') expect(await modeOf(outcome.path)).toBe(0o600);
    expect(ctx.err()).toContain('App ID');
    expect(ctx.err()).toContain('(input hidden)');
    expect(ctx.out() + ctx.err()).not.toContain(canary);
  });

  it('takes defaults from the flags and does not store the secret when declined', async () => {
    const ctx = ctxFor({ tty: true, answers: ['', '', ''] });
    const outcome = await init({ appId: 'flag-app', region: 'india' }, ctx);
    expect(await json(outcome.path)).toEqual({ appId: 'flag-app', region: 'india' });
    expect(ctx.err()).toContain('App ID [flag-app]');
  });

  it('asks again after an unknown region', async () => {
    const ctx = ctxFor({ tty: true, answers: ['a', 'indai', 'india', 'n'] });
    const outcome = await init({}, ctx);
    expect(await json(outcome.path)).toEqual({ appId: 'a', region: 'india' });
    expect(ctx.err()).toContain('did you mean "india"?');
  });

  it('answers piped in one chunk are not lost between questions', async () => {
    const ctx = ctxFor({ tty: true, stdin: 'piped-app\nindia\nn\n' });
    const outcome = await init({}, ctx);
    expect(await json(outcome.path)).toEqual({ appId: 'piped-app', region: 'india' });
  });

  it('writes nothing when input ends early', async () => {
    const ctx = ctxFor({ tty: true, stdin: 'a\n' });
    const error = await rejectionOf(init({}, ctx));
    expect(error.message).toContain('cancelled');
    await expect(stat(path.join(box.project, '.pushctlrc.json'))).rejects.toThrow();
  });

  it('tells the scrubber the secret it was given, and initCommand returns exit 0', async () => {
    const seen: (string | undefined)[] = [];
    const ctx = ctxFor({ tty: true, answers: ['a', 'global', 'y', canary] });
    expect(await initCommand({}, { ...ctx, scrubber: { add: (s) => seen.push(s) } })).toBe(0);
    expect(seen).toContain(canary);
  });

  it('--yes skips the questions on a terminal', async () => {
    const ctx = ctxFor({ tty: true });
    await init({ appId: 'a', yes: true }, ctx);
    expect(ctx.err()).not.toContain('App ID');
  });
});
