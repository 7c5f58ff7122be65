// What the built CLI needs on its way to the answer. Start-up is measured by `npm run bench`, not here; this
// pins the decision behind it, which a stray import would undo without failing anything else: each command
// loads main.cjs and its own file (and zod's, shared by the files that check input), and the heavy parts (the emulator, the spinner, cosmiconfig, the proxy
// agents, colour) only when a run uses them. Checked by behaviour: the command still works in a copy of the
// package from which every other file has been removed.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runProcess } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0 });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-startup-'));
  writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } }));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every JavaScript file of the built CLI, relative to dist/. */
function cliFiles(at: string): string[] {
  return (readdirSync(at, { recursive: true }) as string[]).filter((file) => file.endsWith('.cjs')).map((file) => relative(at, join(at, file)));
}

/** Runs `args` in a copy of the package that keeps only `keep` of dist/'s CLI files. */
async function runWithOnly(keep: string[], args: string[]) {
  const copy = mkdtempSync(join(dir, 'package-'));
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  const removed = cliFiles(join(copy, 'dist')).filter((file) => !keep.includes(file));
  expect(removed.length).toBeGreaterThan(0);
  for (const file of removed) rmSync(join(copy, 'dist', file));
  const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), PUSHCTL_APP_SECRET: 'demo-secret' });
  return runProcess(process.execPath, [join(copy, 'bin', 'pushctl.cjs'), ...args], { env, cwd: dir });
}

describe('the start-up path of the built CLI', () => {
  it('--help needs main.cjs alone', async () => {
    const r = await runWithOnly(['main.cjs'], ['--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: pushctl /);
  });

  it('validate needs main.cjs, its own file, zod and the JSON parser', async () => {
    const r = await runWithOnly(['main.cjs', 'commands/validate/run.cjs', 'vendor/zod.cjs', 'json.cjs'], ['validate', '-f', 'message.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('valid');
  });

  it('a one-message send needs main.cjs, its own file and zod: no emulator, spinner, cosmiconfig, proxy agents or colour', async () => {
    const r = await runWithOnly(['main.cjs', 'commands/send/run.cjs', 'vendor/zod.cjs', 'json.cjs'], ['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--client-id', 'device-1', '--title', 'Hi', '--desc', 'there']);
    expect(r.code, r.stderr).toBe(0);
    expect(emulator.messages('demo-app').map((m) => m.body.condition.client_ids)).toContainEqual(['device-1']);
  });
});

/**
 * What a run of the built CLI loads, seen from inside it by a module preloaded with --require: the CLI files
 * it compiled (require.cache) and which of process.stdin, process.stdout and process.stderr it created: Node
 * builds each stream on first use, for a pipe with node:net and node:stream, milliseconds that a run which
 * never reads stdin, and writes its pipes with writeSync (src/stdio-sink.ts), should not pay.
 */
async function loadedBy(args: string[]): Promise<{ files: string[]; streams: string[] }> {
  const probe = join(dir, 'probe.cjs');
  const report = join(dir, `loaded-${args[0]}.json`);
  writeFileSync(
    probe,
    [
      'const streams = [];',
      "for (const name of ['stdin', 'stdout', 'stderr']) {",
      '  const descriptor = Object.getOwnPropertyDescriptor(process, name);',
      '  Object.defineProperty(process, name, { ...descriptor, get() { if (!streams.includes(name)) streams.push(name); return descriptor.get.call(this); } });',
      '}',
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_REPORT, JSON.stringify({ files: Object.keys(require.cache), streams })));",
    ].join('\n'),
  );
  const env = cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), PUSHCTL_APP_SECRET: 'demo-secret', PROBE_REPORT: report });
  const r = await runProcess(process.execPath, ['--require', probe, join(ROOT, 'bin', 'pushctl.cjs'), ...args], { env, cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const seen = JSON.parse(readFileSync(report, 'utf8')) as { files: string[]; streams: string[] };
  const dist = join(ROOT, 'dist');
  return { files: seen.files.filter((file) => file.startsWith(dist)).map((file) => relative(dist, file)).sort(), streams: seen.streams.sort() };
}

describe('what a run of the built CLI loads', () => {
  it('--help: main.cjs alone (no JSON parser, no zod), and none of Node\'s stdio streams', async () => {
    expect(await loadedBy(['--help'])).toEqual({ files: ['main.cjs'], streams: [] });
  });

  it('validate -f: main.cjs, its own file, zod without its JSON Schema generator, the JSON parser, and none of Node\'s stdio streams', async () => {
    expect(await loadedBy(['validate', '-f', 'message.json'])).toEqual({ files: ['commands/validate/run.cjs', 'json.cjs', 'main.cjs', 'vendor/zod.cjs'], streams: [] });
  });

  it('the README and docs/design.md count the files validate -f loads', async () => {
    const { files } = await loadedBy(['validate', '-f', 'message.json']);
    const words = ['one', 'two', 'three', 'four', 'five', 'six'];
    for (const doc of ['README.md', 'docs/design.md']) {
      const text = readFileSync(join(ROOT, doc), 'utf8').replace(/\s+/g, ' ');
      expect(/loads at most (\w+) files of JavaScript/.exec(text)?.[1], doc).toBe(words[files.length - 1]);
    }
  });

  it('a one-message send: neither stdin nor stdout', async () => {
    const { streams } = await loadedBy(['send', '--base-url', emulator.url, '--app-id', 'demo-app', '--client-id', 'device-2', '--title', 'Hi', '--desc', 'there']);
    // Node's own net.Socket reads process.stderr as it destroys a socket (to leave stderr's out of a debug
    // line), which closing the client's keep-alive connection does: Node's choice, not pushctl's.
    expect(streams.filter((name) => name !== 'stderr')).toEqual([]);
  });
});

describe('the files of the built CLI', () => {
  it('every command of src/commands/ is an entry of its own (scripts/build.mjs lists it)', () => {
    // A command is a folder (its run.ts the entry) or, not yet moved to one, a file.
    const entries = readdirSync(join(ROOT, 'src', 'commands'), { withFileTypes: true });
    const commands = entries.flatMap((e) => (e.isDirectory() ? (e.name === 'shared' ? [] : [`commands/${e.name}/run.cjs`]) : e.name.endsWith('.ts') ? [`commands/${e.name.replace(/\.ts$/, '.cjs')}`] : []));
    expect(commands.length).toBeGreaterThanOrEqual(10);
    const missing = commands.filter((file) => !existsSync(join(ROOT, 'dist', file)));
    expect(missing, 'add the command to CLI_ISLANDS in scripts/build.mjs').toEqual([]);
  });

  it('holds one copy of the error classes, in main.cjs, which every other file requires', () => {
    const files = cliFiles(join(ROOT, 'dist'));
    const text = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    // The classes set their names as strings, which minifying keeps.
    for (const name of ['CliError', 'ClientIdError']) expect(files.filter((file) => text(file).includes(`"${name}"`)), name).toEqual(['main.cjs']);
    for (const file of ['commands/send/run.cjs', 'commands/validate/run.cjs', 'client-ids.cjs', 'emulator.cjs']) expect(text(file)).toMatch(/require\("(\.\/|(\.\.\/)+)main\.cjs"\)/);
  });

  it('holds one copy of zod, in vendor/zod.cjs, which every file that checks input requires', () => {
    const files = cliFiles(join(ROOT, 'dist'));
    const text = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    // zod names the class of every schema it builds as a string, which minifying keeps.
    expect(files.filter((file) => text(file).includes('"ZodMiniObject"'))).toEqual(['vendor/zod.cjs']);
    for (const file of ['commands/send/run.cjs', 'commands/validate/run.cjs']) expect(text(file)).toMatch(/require\("(\.\.\/)+vendor\/zod\.cjs"\)/);
  });

  it("holds resend's code once, in send's file (scripts/build.mjs, HOSTED): resend's own file hands it on", async () => {
    const text = (file: string) => readFileSync(join(ROOT, 'dist', file), 'utf8');
    expect(text('commands/resend/run.cjs')).toMatch(/require\("\.\.\/send\/run\.cjs"\)/);
    expect(text('commands/resend/run.cjs').length).toBeLessThan(2000);
    // And a resend runs with send's file beside main.cjs, zod's and the JSON parser's.
    const r = await runWithOnly(['main.cjs', 'commands/resend/run.cjs', 'commands/send/run.cjs', 'vendor/zod.cjs', 'json.cjs'], ['resend', 'no-such-run']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('no run "no-such-run"');
  });
});
