// Every command the README shows is run here against the emulator, so the README cannot drift from the tool.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { shellWords } from '../helpers/shell-words.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = (lang: string) => [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const commands = blocks('sh')
  .flatMap((b) => b.split('\n'))
  .map((l) => l.trim())
  .filter((l) => l.startsWith('pushctl '));

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0 });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-readme-'));
  // The files the README's examples name.
  // The examples read the repository's own template, as they do on a fresh clone.
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  writeFileSync(join(dir, 'ids.txt'), Array.from({ length: 2100 }, (_, i) => `device-${i}`).join('\n'));
  writeFileSync(join(dir, 'devices.csv'), 'client_id,country,language,brand,model,os_version,app_version\ndevice-1,GB,en-GB,Samsung,SM-A546B,33,3.1.0\n');
  // The run the `pushctl runs show` examples name: a real run's journal, under the id the README shows.
  const made = await runCli(['send', '--all', '--title', 'Hello', '--journal', 'run.jsonl'], { env: env(), cwd: dir });
  expect(made.code, made.stderr).toBe(0);
  mkdirSync(join(dir, 'runs'), { recursive: true });
  copyFileSync(join(dir, 'run.jsonl'), join(dir, 'runs', '20261122-231502-4f1c.jsonl'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), PUSHCTL_BASE_URL: emulator.url, PUSHCTL_APP_ID: 'demo-app', PUSHCTL_APP_SECRET: 'demo-secret' });

describe('README examples', () => {
  it('has examples to run', () => {
    expect(commands.length).toBeGreaterThan(10);
  });

  it('runs no package name from the public registry: pushctl comes from a source the user pins', () => {
    const runnable = blocks('(?:sh|yaml|yml)').join('\n');
    expect(runnable).not.toMatch(/\bnpx\b/);
    expect(runnable).not.toMatch(/npm (?:i|install)(?: -g)? pushctl(?:@|\b)(?!.*\.tgz)/);
  });

  for (const line of commands) {
    const args = shellWords(line).slice(1);
    if (args[0] === 'serve') {
      it(`runs: ${line}`, async () => {
        // The emulator runs until interrupted: start it on a free port, wait for its URL, stop it.
        const child = spawn(process.execPath, [BIN, ...args.map((a) => (a === '8787' ? '0' : a)), ...(args.includes('--port') ? [] : ['--port', '0'])], { cwd: dir, env: env() as NodeJS.ProcessEnv });
        onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
        let out = '';
        child.stdout.setEncoding('utf8');
        await new Promise<void>((resolve) => child.stdout.on('data', (d: string) => ((out += d), out.includes('\n') && resolve())));
        expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
        child.kill('SIGINT');
        const [code] = (await once(child, 'close')) as [number | null];
        expect(code).toBe(0);
      });
      continue;
    }
    if (/[<>|]|\$\(/.test(line.replace(/#.*$/, '').replace(/"[^"]*"/g, ''))) {
      // A line with redirections or substitutions runs in bash, with `pushctl` standing for the built CLI
      // and HOME pointing at the scratch directory, so files it writes stay there.
      it(`runs: ${line}`, async () => {
        mkdirSync(join(dir, '.zfunc'), { recursive: true });
        mkdirSync(join(dir, '.config/fish/completions'), { recursive: true });
        const script = `set -euo pipefail; pushctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }; ${line}`;
        const r = spawnSync('bash', ['-c', script], { cwd: dir, env: env() as NodeJS.ProcessEnv, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
      });
      continue;
    }
    it(`runs: ${line}`, async () => {
      const r = await runCli(args, { env: env(), cwd: dir });
      expect(r.code, r.stderr).toBe(0);
    });
  }

  it('runs the library example', async () => {
    const [code] = blocks('js');
    expect(code).toContain("from 'pushctl'");
    // Inside the package, `import 'pushctl'` resolves to the package itself (a self-reference), as it would
    // for a user who installed it.
    const scratch = join(ROOT, '.tmp');
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, `readme-library-${process.pid}.mjs`);
    writeFileSync(file, code!);
    try {
      const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [file], { cwd: scratch });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (c) => resolve({ code: c, out, err }));
      });
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^emu-/);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('README JSON examples', () => {
  const jsonBlocks = blocks('json').map((b) => JSON.parse(b) as Record<string, unknown>);
  const find = (key: string) => jsonBlocks.find((b) => key in b)!;

  it('the config file example is a valid config, with a working profile', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pushctl-readme-config-'));
    try {
      writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify(find('profiles')));
      const r = await runCli(['config', '--profile', 'emulator', '--json'], { env: cleanEnv({ HOME: work, XDG_CONFIG_HOME: join(work, '.config') }), cwd: work });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('demo-app');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('the "$schema" message example validates', async () => {
    writeFileSync(join(dir, 'schema-example.json'), JSON.stringify(find('$schema')));
    const r = await runCli(['validate', '-f', 'schema-example.json'], { env: env(), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('the --json and report examples have the shape pushctl prints', async () => {
    // A run of two batches with --report, so the document carries every key but the resend command.
    writeFileSync(join(dir, 'two.txt'), 'a\nb\n');
    const r = await runCli(['send', '--client-ids-file', 'two.txt', '--batch-size', '1', '--title', 'x', '--json', '--report', 'shape.json'], { env: env(), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    const documented = find('message_ids');
    // The README also shows the keys that appear only when something failed or is left to resend.
    expect(Object.keys(documented).sort()).toEqual([...new Set([...Object.keys(doc), 'audience', 'resumed_from', 'resend_command', 'in_doubt', 'include_unknown_command', 'error'])].sort());
    expect(Object.keys((documented.batches as object[])[0]!).sort()).toEqual(Object.keys((doc.batches as object[])[0]!).sort());
    const report = JSON.parse(readFileSync(join(dir, 'shape.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(find('not_sent')).sort()).toEqual(Object.keys(report).sort());
  });
});
