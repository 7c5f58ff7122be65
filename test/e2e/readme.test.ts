// Every command the README shows is run here against the emulator, so the README cannot drift from the tool.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createEmulator, syntheticFleet, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli } from '../helpers/serve-cli.js';
import { shellWords } from '../helpers/shell-words.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const blocks = (lang: string) => [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
/** Every line of every shell block, comments and blank lines aside: each one is run or skipped with a reason. */
const lines = blocks('sh')
  .flatMap((b) => b.split('\n'))
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

/**
 * Lines this test does not run, each with the reason it prints. Everything else runs: `pushctl` lines
 * against the emulator, shell lines in bash, and `export` lines become the environment of the lines after.
 */
const SKIPPED: [RegExp, string][] = [
  [/^npm ci && npm run demo\b/, 'installs the dependencies this test runs on; the demo script itself runs below ("npm run demo")'],
  [/^npm ci && npm test\b/, 'the whole suite, of which this test is a part'],
  [/^npm (test|run (build|typecheck|lint|bench))\b/, 'the development commands build and check this very checkout (npm test runs them before this test)'],
  [/^git (clone|checkout) /, 'needs the network and your fork: the test packs this checkout instead (test/e2e/package.test.ts)'],
  [/^npm ci && npm pack\b/, 'npm pack rebuilds dist/, which the other tests are using: test/e2e/package.test.ts packs this checkout and installs the tarball'],
  [/^npm ci\s/, 'installs the dependencies this test already runs on'],
  [/^sha256sum pushctl-/, 'needs the tarball of the line above (the GitLab recipe test checks a checksum: test/e2e/examples.test.ts)'],
  [/^npm install --save-dev \.\/pushctl-/, 'test/e2e/package.test.ts installs the packed tarball into an empty project; the library example below runs'],
];

/** The setting `pushctl config --json` reports for each variable a README `export` line may set. */
const SETTING_OF_VARIABLE: Record<string, string> = {
  PUSHCTL_APP_ID: 'app_id',
  PUSHCTL_APP_SECRET: 'app_secret',
  PUSHCTL_BASE_URL: 'base_url',
  PUSHCTL_REGION: 'region',
  PUSHCTL_PROFILE: 'profile',
  PUSHCTL_CONFIG: 'config_file',
};

/** A run id the README shows as a sample: replaced by the id of a real run made first. */
const SAMPLE_RUN_ID = /\b\d{8}-\d{6}(?:-[0-9a-f]{4})?\b/g;

/**
 * Spawns without blocking: the emulator lives in this process and must answer while the child runs (a
 * synchronous spawn would stall it until the child times out).
 */
function spawnAsync(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let emulator: Emulator;
let dir: string;
let runId: string;
/** The variables the README's `export` lines set, with the emulator's real address. */
const exported: Record<string, string> = {};
const here = (text: string) => text.replaceAll('127.0.0.1:8787', new URL(emulator.url).host);

beforeAll(async () => {
  // The README's emulator: `pushctl serve --fleet 1000`, whose devices are device-000001 to device-001000.
  emulator = await createEmulator({ port: 0, rate: 0, fleet: syntheticFleet(1000, 1) });
  dir = mkdtempSync(join(tmpdir(), 'pushctl-readme-'));
  // The examples read the repository's own files (examples/ids.txt, devices.csv, the template), as they do
  // on a fresh clone; nothing is made up for them here.
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  // The variables the README exports, read from the README itself.
  for (const line of lines.filter((l) => l.startsWith('export '))) {
    for (const word of shellWords(line).slice(1)) {
      const eq = word.indexOf('=');
      exported[word.slice(0, eq)] = here(word.slice(eq + 1));
    }
  }
  // A real run, whose id stands in for the README's sample id.
  const made = await runCli(['send', '--all', '--title', 'Hello', '--json'], { env: env(), cwd: dir });
  expect(made.code, made.stderr).toBe(0);
  const listed = await runCli(['runs', '--json'], { env: env(), cwd: dir });
  runId = (JSON.parse(listed.stdout) as { runs: { run_id: string }[] }).runs[0]!.run_id;
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), ...exported });

describe('README examples', () => {
  it('has examples to run, and sets the emulator\'s variables before using them', () => {
    expect(lines.length).toBeGreaterThan(20);
    expect(Object.keys(exported).sort()).toEqual(['PUSHCTL_APP_ID', 'PUSHCTL_APP_SECRET', 'PUSHCTL_BASE_URL']);
  });

  it('runs no package name from the public registry: pushctl comes from a source the user pins', () => {
    const runnable = blocks('(?:sh|yaml|yml)').join('\n');
    expect(runnable).not.toMatch(/\bnpx\b/);
    expect(runnable).not.toMatch(/npm (?:i|install)(?: -g| --save-dev| --global)? pushctl(?:@|\b)(?!.*\.tgz)/);
  });

  it(`names one version of pushctl, the package's (${VERSION})`, () => {
    const text = [readme, ...['github-actions.yml', 'gitlab-ci.yml'].map((f) => readFileSync(join(ROOT, 'examples', f), 'utf8'))].join('\n');
    const named = [...text.matchAll(/pushctl@[0-9a-f]{40} # v(\d+\.\d+\.\d+)|pushctl-(\d+\.\d+\.\d+)\.tgz|releases?(?: upload|\/download\/) ?v(\d+\.\d+\.\d+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(named.length).toBeGreaterThan(3);
    expect(new Set(named)).toEqual(new Set([VERSION]));
  });

  for (const line of lines) {
    const skip = SKIPPED.find(([pattern]) => pattern.test(line));
    if (skip) {
      // Printed, so a skipped line is never silent.
      it.skip(`${line} — not run: ${skip[1]}`, () => {});
      continue;
    }
    if (line.startsWith('export ')) {
      it(`sets: ${line}`, async () => {
        // What this line sets must be what its own README block starts: the address, app ID and secret of
        // the block's `pushctl serve`, whose defaults come from its --help, not from the README. That serve
        // is started as the block writes it, and `pushctl check`, with only this line's variables, proves
        // the address and the credentials with a dry run against it: a wrong port, app ID or secret fails.
        const block = blocks('sh').find((b) => b.split('\n').some((l) => l.trim() === line))!;
        const serveLine = block.split('\n').map((l) => l.trim()).find((l) => l.startsWith('pushctl serve'));
        expect(serveLine, 'the block that exports the variables starts the emulator they point at').toBeDefined();
        const help = (await runCli(['serve', '--help'])).stdout;
        const host = /--host <host>.*\(default: "([^"]+)"\)/.exec(help)?.[1];
        const port = /--port <port>.*\(default: (\d+)\)/.exec(help)?.[1];
        expect(host && port, 'pushctl serve --help states its default host and port').toBeTruthy();
        // Started as the block writes it, but on a free port: the address it would listen on (its own --host
        // and --port, or the defaults) stands for it in the line.
        const words = shellWords(serveLine!).slice(2);
        const given = (flag: string) => words[words.indexOf(flag) + 1];
        const address = `${words.includes('--host') ? given('--host') : host}:${words.includes('--port') ? given('--port') : port}`;
        const served = await serveCli(words.filter((word, i) => word !== '--port' && words[i - 1] !== '--port'));
        onTestFinished(() => served.stop());
        const atServed = (value: string) => value.replaceAll(address, new URL(served.url).host);
        const set = Object.fromEntries(shellWords(line).slice(1).map((word) => [word.slice(0, word.indexOf('=')), atServed(word.slice(word.indexOf('=') + 1))]));
        expect(Object.keys(set).length).toBeGreaterThan(0);
        const checked = await runCli(['check', '--json'], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...set }), cwd: dir });
        expect(checked.code, checked.stderr).toBe(0);
        const shown = JSON.parse(checked.stdout) as { settings: Record<string, { value?: unknown; set?: boolean; source: string }>; answer: { code: number } };
        expect(shown.answer.code).toBe(200);
        for (const [name, value] of Object.entries(set)) {
          const key = SETTING_OF_VARIABLE[name];
          expect(key, `${name} is not a variable pushctl reads`).toBeDefined();
          expect(shown.settings[key!]!.source).toBe(`env ${name}`);
          if (key === 'app_secret') expect(shown.settings[key]!.set).toBe(true);
          else expect(shown.settings[key!]!.value).toBe(value);
        }
      });
      continue;
    }
    expect(line, 'a README shell line that this test neither runs nor skips with a reason').toMatch(/^(pushctl |source <\(pushctl |mkdir -p )/);
    const args = () => shellWords(here(line.replace(SAMPLE_RUN_ID, runId))).slice(1);
    if (line.startsWith('pushctl serve')) {
      it(`runs: ${line}`, async () => {
        // The emulator runs until interrupted: start it on a free port, wait for its URL, stop it.
        const given = args();
        const child = spawn(process.execPath, [BIN, ...given.map((a) => (a === '8787' ? '0' : a)), ...(given.includes('--port') ? [] : ['--port', '0'])], { cwd: dir, env: env() as NodeJS.ProcessEnv });
        onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
        const [started] = await Promise.race([
          new Promise<[boolean]>((resolve) => child.stdout.on('data', (d: string) => ((out += d), out.includes('\n') && resolve([true])))),
          once(child, 'close').then(() => [false] as [boolean]),
        ]);
        expect(started, err).toBe(true);
        expect(out).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
        child.kill('SIGINT');
        const [code] = (child.exitCode !== null ? [child.exitCode] : await once(child, 'close')) as [number | null];
        expect(code).toBe(0);
      });
      continue;
    }
    if (/[<>|]|\$\(|&&/.test(line.replace(/#.*$/, '').replace(/"[^"]*"/g, ''))) {
      // A line with redirections, substitutions or && runs in bash, as written, with `pushctl` standing for
      // the built CLI and HOME pointing at the scratch directory, so files it writes stay there.
      it(`runs: ${line}`, async () => {
        const script = `set -euo pipefail; pushctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }; ${here(line)}`;
        const r = await spawnAsync('bash', ['-c', script], { cwd: dir, env: env() });
        expect(r.status, r.stderr).toBe(0);
      });
      continue;
    }
    it(`runs: ${line}`, async () => {
      const r = await runCli(args(), { env: env(), cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      // Client IDs in an example are devices of the documented fleet: the send reaches every one it names.
      const words = line.startsWith('pushctl send ') ? shellWords(line) : [];
      const from = words.indexOf('--client-id');
      const upTo = words.findIndex((word, i) => i > from && word.startsWith('-'));
      const named = from < 0 ? undefined : words.slice(from + 1, upTo < 0 ? undefined : upTo).flatMap((word) => word.split(',')).filter(Boolean);
      if (named) expect(emulator.messages().at(-1)?.reached, `${line} reaches the fleet's devices`).toBe(named.length);
      // The audience the README's `init --audience` line names is two devices of the fleet.
      if (words.includes('--to')) expect(emulator.messages().at(-1)?.reached, `${line} reaches the audience's devices`).toBe(2);
    });
  }

  it('no shell line needs a run id it did not make: a pasted line works on its own', () => {
    expect(lines.filter((l) => SAMPLE_RUN_ID.test(l))).toEqual([]);
  });

  it('npm run demo: the command it prints works while its emulator runs, Ctrl-C stops it, and no journal reaches the state directory', async () => {
    const state = mkdtempSync(join(tmpdir(), 'pushctl-demo-state-'));
    onTestFinished(() => rmSync(state, { recursive: true, force: true }));
    const demoEnv = cleanEnv({ HOME: dir, XDG_STATE_HOME: state });
    const child = spawn(process.execPath, [join(ROOT, 'scripts/demo.mjs')], { cwd: ROOT, env: demoEnv as NodeJS.ProcessEnv });
    onTestFinished(() => void (child.exitCode === null && child.kill('SIGKILL')));
    let err = '';
    child.stderr.setEncoding('utf8');
    const pasted = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d: string) => {
        err += d;
        const command = /^ {2}(PUSHCTL_APP_SECRET=\S+ node \S+ send .*)$/m.exec(err)?.[1];
        if (command) resolve(command);
      });
      child.on('close', (code) => reject(new Error(`demo exited ${code} before printing its command:\n${err}`)));
    });
    expect(err).toMatch(/✓ sent: message_id emu-/);
    // Pasted into a second terminal in the repository, while the demo is still running.
    const again = await spawnAsync('bash', ['-c', `${pasted.replace(/ node /, ` ${JSON.stringify(process.execPath)} `)} --no-journal`], { cwd: ROOT, env: demoEnv });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^emu-/);
    child.kill('SIGINT');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    expect(existsSync(join(state, 'pushctl'))).toBe(false);
  });

  it('the concurrency group the README shows is the recipe\'s', () => {
    const [, group] = blocks('yaml');
    const recipe = load(readFileSync(join(ROOT, 'examples', 'github-actions.yml'), 'utf8')) as { concurrency: unknown };
    expect(load(group!)).toEqual({ concurrency: recipe.concurrency });
  });

  it('the GitHub Actions snippet runs as written: the action with its inputs, against the emulator', async () => {
    const [snippet] = blocks('yaml');
    // The snippet restores and saves the journal directory around the step (actions/cache, not run here).
    const steps = load(snippet!) as { uses: string; with: Record<string, string> }[];
    const step = steps.find((s) => /\/pushctl@/.test(s.uses))!;
    expect(steps.map((s) => s.uses.split('@')[0])).toEqual(['actions/cache/restore', 'your-org/pushctl', 'actions/cache/save']);
    const expressions: Record<string, string> = {
      'vars.PUSHCTL_APP_ID': 'demo-app',
      'secrets.PUSHCTL_APP_SECRET': 'demo-secret',
      'github.ref_name': 'v1.4.0',
      'runner.temp': join(dir, '.runner-temp'),
    };
    const inputs = Object.fromEntries(
      Object.entries(step.with).map(([key, value]) => [
        `INPUT_${key.toUpperCase()}`,
        String(value).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
          expect(Object.keys(expressions), `unknown expression ${expr}`).toContain(expr);
          return expressions[expr]!;
        }),
      ]),
    );
    const output = join(dir, '.github-output');
    writeFileSync(output, '');
    const runner = { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: join(dir, '.step-summary'), GITHUB_WORKSPACE: dir };
    emulator.clear();
    const r = await spawnAsync(process.execPath, [join(ROOT, 'action/index.js')], { cwd: dir, env: cleanEnv({ HOME: dir, PUSHCTL_BASE_URL: emulator.url, PUSHCTL_JOURNAL_DIR: join(dir, 'runs'), ...runner, ...inputs }) });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const [sent] = emulator.messages('demo-app').filter((m) => m.delivered);
    expect(sent!.body).toMatchObject({ notification: { title: 'Version 1.4.0 is out', desc: expect.stringContaining('Faster sends') } });
    // "Re-run jobs": the same step with the journal directory restored sends nothing.
    const again = await spawnAsync(process.execPath, [join(ROOT, 'action/index.js')], { cwd: dir, env: cleanEnv({ HOME: dir, PUSHCTL_BASE_URL: emulator.url, ...runner, ...inputs }) });
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(emulator.messages('demo-app').filter((m) => m.delivered)).toHaveLength(1);
    expect(readFileSync(output, 'utf8')).toContain('skipped=true');
  });

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

/**
 * A document with what differs from run to run made alike: message ids, run ids, times in file names, the
 * journal's directory and the emulator's port. Everything else must be what the README shows.
 */
function normalised(document: unknown): unknown {
  const text = JSON.stringify(document)
    .replace(/emu-[0-9a-f-]{36}/g, 'emu-<id>')
    .replace(/\b\d{8}-\d{6}-[0-9a-f]{4}\b/g, '<run-id>')
    .replace(/pushctl-report-[\dT:-]+Z\.json/g, 'pushctl-report-<time>.json')
    .replace(/"\/[^"]*\/runs\/<run-id>\.jsonl"/g, '"<journal>"')
    .replaceAll(new URL(emulator.url).host, '127.0.0.1:8787');
  return JSON.parse(text);
}

describe('README text samples', () => {
  it('each is the end of what its command prints, against the emulator its comment names, from a real run', async () => {
    const samples = [...readme.matchAll(/<!-- stderr of: (.+?) against `pushctl serve (.+?)` -->\n```text\n([\s\S]*?)```/g)];
    expect(samples.length).toBe(blocks('text').length);
    for (const [, command, serveArgs, shown] of samples) {
      // A fresh emulator per sample: its chaos generator starts at the seed, so the faults are the sample's.
      const chaos = /--chaos (\S+)/.exec(serveArgs!)?.[1];
      const seed = /--chaos-seed (\d+)/.exec(serveArgs!)?.[1];
      const own = await createEmulator({ port: 0, rate: 0, ...(chaos ? { chaos } : {}), ...(seed ? { chaosSeed: Number(seed) } : {}) });
      const work = mkdtempSync(join(tmpdir(), 'pushctl-readme-text-'));
      try {
        const script = `set -euo pipefail; pushctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }; ${command!}`;
        const r = await spawnAsync('bash', ['-c', script], { cwd: work, env: { ...env(), PUSHCTL_BASE_URL: own.url } });
        const expected = shown!.trimEnd().split('\n');
        const printed = r.stderr.trimEnd().split('\n').slice(-expected.length);
        const alike = (text: string[]) => text.map((line) => line.replace(/\b\d{8}-\d{6}-[0-9a-f]{4}\b/g, '<run-id>'));
        expect(alike(printed), r.stderr).toEqual(alike(expected));
      } finally {
        await own.close();
        rmSync(work, { recursive: true, force: true });
      }
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

  it('the audiences example is a valid config, listed with its sizes and conditions', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pushctl-readme-audiences-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify(find('audiences')));
    mkdirSync(join(work, 'lists'));
    // A repeated ID and a blank line: the size is the distinct IDs a send would read.
    writeFileSync(join(work, 'lists', 'testers.txt'), 'tester-1\ntester-2\ntester-3\ntester-1\n\n');
    const r = await runCli(['config', '--json'], { env: cleanEnv({ HOME: work, XDG_CONFIG_HOME: join(work, '.config') }), cwd: work });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { audiences: unknown[] }).audiences).toEqual([
      { name: 'my-phones', kind: 'client_ids', client_ids: 2 },
      { name: 'testers', kind: 'client_ids_file', file: join(work, 'lists', 'testers.txt'), client_ids: 3 },
      { name: 'india-hindi', kind: 'targeting', targeting: { country: ['IN'], language: ['hi'] } },
      { name: 'everyone', kind: 'all' },
    ]);
  });

  it('the "$schema" message example validates', async () => {
    writeFileSync(join(dir, 'schema-example.json'), JSON.stringify(find('$schema')));
    const r = await runCli(['validate', '-f', 'schema-example.json'], { env: env(), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('every other JSON block is the output of the command its comment names, from a real run', async () => {
    // Each sample is preceded by `<!-- output of: <command> -->`; the commands run in order in one directory
    // (a later one may read a file an earlier one wrote), against the README's emulator.
    const samples = [...readme.matchAll(/<!-- output of: (.+?) -->\n```json\n([\s\S]*?)```/g)].map((m) => ({ command: m[1]!, shown: m[2]! }));
    // The others: the config file, the audiences, the "$schema" line, the MCP client entry (test/e2e/mcp.test.ts
    // starts it), and the release announcement's config and message (test/e2e/release-announcement.test.ts).
    expect(samples.length + 6).toBe(blocks('json').length);
    const work = mkdtempSync(join(tmpdir(), 'pushctl-readme-samples-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    for (const { command, shown } of samples) {
      const script = `pushctl() { ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"; }; ${here(command)}`;
      const r = await spawnAsync('bash', ['-c', script], { cwd: work, env: env() });
      expect(r.stdout, `${command}: ${r.stderr}`).not.toBe('');
      expect(normalised(JSON.parse(r.stdout)), command).toEqual(normalised(JSON.parse(shown)));
    }
  });
});

describe('README prose', () => {
  it('the batch statuses it says carry a reason are those a failed send\'s batches have', async () => {
    const words = /or a\s+`reason` \(([^)]+)\)/.exec(readme)![1]!.split(', ').map((w) => w.replaceAll(' ', '_'));
    const own = await createEmulator({ port: 0, rate: 0, chaos: '500=50%,503=50%', chaosSeed: 1 });
    onTestFinished(() => own.close());
    const ids = Array.from({ length: 8 }, (_, i) => `device-${i}`);
    const r = await runCli(['send', '--client-id', ...ids, '--title', 'Hi', '--batch-size', '1', '--max-attempts', '1', '--no-journal', '--json'], { env: { ...env(), PUSHCTL_BASE_URL: own.url }, cwd: dir });
    const batches = (JSON.parse(r.stdout) as { batches: { status: string; reason?: string }[] }).batches;
    const withReason = [...new Set(batches.filter((b) => b.reason !== undefined).map((b) => b.status))].sort();
    expect(withReason).toEqual([...words].sort());
  });

  it('pushctl check answers in the line the README quotes, and --json has the keys it names', async () => {
    const quoted = /It answers in one line \(`([^`]+)`\), and with `--json` in the one envelope \(([^)]+)\)/.exec(readme.replace(/\n/g, ' '))!;
    const human = await runCli(['check'], { env: env(), cwd: dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout + human.stderr).toContain(here(quoted[1]!));
    const named = [...quoted[2]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    const refused = await runCli(['check', '--json'], { env: { ...env(), PUSHCTL_APP_SECRET: 'wrong-secret' }, cwd: dir });
    expect(refused.code).toBe(4);
    expect(Object.keys(JSON.parse(refused.stdout) as object).filter((k) => k !== 'ok' && k !== 'exit_code')).toEqual(named);
  });

  it('the message flags table gives every --ttl form send --help gives', async () => {
    const help = (await runCli(['send', '--help'], { env: env(), cwd: dir })).stdout;
    const forms = /--ttl <duration> +time_to_live: ([^\n]+)/.exec(help)![1]!.split(', ');
    // The row's cell is `--ttl 3600\|90s\|...`: its pipes are escaped to stay inside the table.
    const cell = /^\| `--ttl ([^`]+)`/m.exec(readme)![1]!;
    expect(cell.split('\\|')).toEqual(forms);
  });

  it('the action\'s paragraph names every input and output of action.yml', () => {
    const action = load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
    const paragraph = readme.slice(readme.indexOf('\nInputs: `mode`'));
    const inputs = paragraph.slice(0, paragraph.indexOf('Outputs:'));
    const outputs = paragraph.slice(paragraph.indexOf('Outputs:'), paragraph.indexOf('\n\n'));
    for (const name of Object.keys(action.inputs)) expect(inputs, `input ${name}`).toContain(`\`${name}\``);
    for (const name of Object.keys(action.outputs)) expect(outputs, `output ${name}`).toContain(`\`${name}\``);
  });

  it('the emulator\'s option table is one table naming every option of serve --help, with its default', async () => {
    const section = readme.slice(readme.indexOf('## The emulator'));
    const start = section.indexOf('| option | default |');
    // The rows up to the first line that is not a row: a blank line inside would end the table there.
    const rows = section.slice(start).split('\n').slice(2);
    const table = rows.slice(0, rows.findIndex((row) => !row.startsWith('|')));
    const help = (await runCli(['serve', '--help'], { env: env(), cwd: dir })).stdout;
    const options = help.slice(help.indexOf('Options:'), help.indexOf('-h, --help')).split(/\n(?= {2}--)/).slice(1);
    expect(options.length).toBeGreaterThan(10);
    for (const option of options) {
      const name = /^ {2}(--[a-z-]+)/.exec(option)![1]!;
      const row = table.find((r) => r.split('|')[1]!.includes(`\`${name}`));
      expect(row, `${name} has no row in the README's emulator table`).toBeDefined();
      const helpDefault = /\(default: "?([^")]+)"?\)/.exec(option.replace(/\s+/g, ' '))?.[1];
      if (helpDefault !== undefined) expect(row!.split('|')[2], name).toContain(`\`${helpDefault}\``);
    }
  });

  it('the CSV header it says is named is refused naming it, and a client_id header is read as that column', async () => {
    const header = /a header such as `([^`]+)` is named/.exec(readme)?.[1];
    expect(header).toBeDefined();
    writeFileSync(join(dir, 'named.csv'), `${header}\ndevice-000001,US\n`);
    const refused = await runCli(['validate', '--title', 'Hi', '--client-ids-file', 'named.csv'], { env: env(), cwd: dir });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`"${header}" is a header`);
    writeFileSync(join(dir, 'read.csv'), 'client_id,country\ndevice-000001,US\n');
    const read = await runCli(['validate', '--title', 'Hi', '--client-ids-file', 'read.csv', '--json'], { env: env(), cwd: dir });
    expect(read.code, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as { body: { condition: unknown } }).body.condition).toEqual({ type: 2, client_ids: ['device-000001'] });
  });
});
