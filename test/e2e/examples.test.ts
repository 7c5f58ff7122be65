// The CI recipes in examples/ are run here, step for step, against the emulator: the workflow files are
// parsed, their CI expressions and variables replaced by test values, and their steps run as the CI would
// run them. The GitHub workflow's pushctl steps run this checkout's action bundle as the runner would
// (INPUT_* variables, GITHUB_OUTPUT); the GitLab job's download and install are answered by stand-ins for
// curl and npm that install the built CLI, while the checksum check is the real sha256sum.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv, runProcess } from '../helpers/run-cli.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ACTION = join(ROOT, 'action/index.js');
const SECRET = 'ci-S3CR3T-5d1e';
const APP = 'ci-app';
const TARBALL = 'stand-in for the pinned pushctl release tarball\n';
const TARBALL_SHA256 = createHash('sha256').update(TARBALL).digest('hex');
const yaml = (name: string) => load(readFileSync(join(ROOT, 'examples', name), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let emulator: Emulator;
let bin: string;
let work: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  bin = mkdtempSync(join(tmpdir(), 'pushctl-stubs-'));
  // curl: only the pinned release URL, written where -o says. npm: only `install --global ./pushctl.tgz`,
  // which puts a pushctl running this checkout's build on the PATH.
  writeFileSync(
    join(bin, 'curl'),
    `#!/bin/sh\nout=; url=\nwhile [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift;; -*) ;; *) url=$1;; esac; shift; done\n` +
      `case "$url" in https://github.com/*/pushctl/releases/download/v*/pushctl-*.tgz) printf '${TARBALL.replace(/\n/g, '\\n')}' > "$out";; *) echo "unexpected curl call: $url" >&2; exit 22;; esac\n`,
  );
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\nfor a; do last=$a; done\n[ "$1" = install ] && [ "$last" = ./pushctl.tgz ] && [ -f pushctl.tgz ] || { echo "unexpected npm call: $*" >&2; exit 127; }\n` +
      `printf '#!/bin/sh\\nexec "%s" "%s" "$@"\\n' "${process.execPath}" "${BIN}" > "${bin}/pushctl" && chmod +x "${bin}/pushctl"\n`,
  );
  chmodSync(join(bin, 'curl'), 0o755);
  chmodSync(join(bin, 'npm'), 0o755);
});
afterAll(async () => {
  await emulator.close();
  rmSync(bin, { recursive: true, force: true });
});
beforeEach(() => {
  emulator.clear();
  rmSync(join(bin, 'pushctl'), { force: true });
  // A fresh checkout: the template where the recipes expect it, nothing else.
  work = mkdtempSync(join(tmpdir(), 'pushctl-ci-'));
  mkdirSync(join(work, 'examples'));
  cpSync(join(ROOT, 'examples/release-announcement.json'), join(work, 'examples/release-announcement.json'));
  return () => rmSync(work, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const baseEnv = (vars: Record<string, string>) =>
  cleanEnv({ ...vars, HOME: work, XDG_CONFIG_HOME: join(work, '.config'), PATH: `${bin}:${process.env.PATH}`, PUSHCTL_BASE_URL: emulator.url });

function spawnIn(command: string, args: string[], env: Record<string, string | undefined>): Promise<Ran> {
  return runProcess(command, args, { cwd: work, env });
}

/** Runs a script as the CI would, in the checkout, with only the given variables (and the stand-ins). */
function runScript(shell: string[], script: string, vars: Record<string, string>): Promise<Ran> {
  // A variable the script uses but nobody sets would silently be empty: catch it here.
  for (const [, name] of script.matchAll(/\$\{?([A-Za-z_]\w*)/g)) expect(Object.keys(vars), `$${name} is not set`).toContain(name);
  return spawnIn(shell[0]!, [...shell.slice(1), script], baseEnv(vars));
}

/** What GitHub offers the workflow's expressions. */
const ci = (secret: string): Record<string, string> => ({
  'github.event.release.tag_name || inputs.version': 'v1.4.0',
  'github.event.release.name || inputs.notes': 'Faster sends',
  'vars.PUSHCTL_APP_ID': APP,
  'secrets.PUSHCTL_APP_SECRET': secret,
  // Unset repository variables read as empty strings, which pushctl treats as unset.
  'vars.PUSHCTL_REGION': '',
  // The cache steps are not run here: the same runner.temp across runs stands for a restored cache.
  'runner.temp': join(work, '.runner-temp'),
  'github.run_id': '4242',
  'github.run_attempt': '1',
});

function expectAnnounced(): void {
  const [message, ...others] = emulator.messages(APP).filter((m) => m.delivered);
  expect(others).toEqual([]);
  expect(message!.body).toMatchObject({
    condition: { type: 0 },
    notification: { title: 'Version 1.4.0 is out', desc: expect.any(String), open_content: 'https://example.com/releases/1.4.0' },
  });
  JSON.parse(readFileSync(join(work, 'pushctl-report.json'), 'utf8'));
}

describe('examples/github-actions.yml', () => {
  const workflow = yaml('github-actions.yml');
  const job = Object.values(workflow.jobs as Record<string, any>)[0]; // eslint-disable-line @typescript-eslint/no-explicit-any
  type Step = { id?: string; run?: string; uses?: string; shell?: string; env?: Record<string, string>; with?: Record<string, unknown> };

  it('queues a second run for the same release behind the first, never cancelling a send half-way', () => {
    expect(workflow.concurrency).toEqual({ group: expect.stringContaining('${{ github.event.release.tag_name || inputs.version }}'), 'cancel-in-progress': false });
  });

  it('pins every action to a full commit SHA', () => {
    const text = readFileSync(join(ROOT, 'examples/github-actions.yml'), 'utf8');
    const uses = [...text.matchAll(/uses:\s*(\S+)/g)].map((m) => m[1]!);
    expect(uses.length).toBeGreaterThan(2);
    for (const ref of uses) expect(ref).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w.-]+)?@[0-9a-f]{40}$/);
    expect(uses.some((ref) => /\/pushctl@/.test(ref))).toBe(true);
    expect(text).not.toMatch(/npx|npm (install|exec)/);
  });

  /** Runs the job's steps in order, as a runner would; stops at the first failure. */
  const runJob = async (secret: string) => {
    const outputs: Record<string, Record<string, string>> = {};
    let jobEnv: Record<string, string> = {};
    const expand = (value: unknown) =>
      String(value).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
        const table = ci(secret);
        if (expr in table) return table[expr]!;
        const env = /^env\.(\w+)$/.exec(expr);
        if (env) return jobEnv[env[1]!] ?? '';
        const out = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
        expect(out, `unknown expression ${expr}`).not.toBeNull();
        return outputs[out![1]!]?.[out![2]!] ?? '';
      });
    const expandAll = (map: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, expand(v)]));
    jobEnv = expandAll(job.env);
    const results: Ran[] = [];
    for (const [index, step] of (job.steps as Step[]).entries()) {
      if (step.uses !== undefined && !/\/pushctl@/.test(step.uses)) continue;
      const outputFile = join(work, `.github-output-${index}`);
      writeFileSync(outputFile, '');
      const runner = { GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: join(work, '.step-summary'), GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work };
      const vars = { ...jobEnv, ...expandAll(step.env), ...runner };
      let r: Ran;
      if (step.run !== undefined) {
        // A step without `shell:` runs `bash -e`; `shell: bash` adds pipefail.
        const shell = step.shell === 'bash' ? ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'] : ['bash', '-e', '-c'];
        r = await runScript(shell, step.run, vars);
      } else {
        const inputs = Object.fromEntries(Object.entries(expandAll(step.with)).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]));
        r = await spawnIn(process.execPath, [ACTION], baseEnv({ ...vars, ...inputs }));
      }
      if (step.id) outputs[step.id] = parseOutputFile(readFileSync(outputFile, 'utf8'));
      results.push(r);
      if (r.code !== 0) break;
    }
    return { results, outputs };
  };

  it('announces the release: dry run, send, outputs used, report in place, secret masked', async () => {
    const { results, outputs } = await runJob(SECRET);
    expect(results.map((r) => r.code), results.map((r) => r.stderr + r.stdout).join('\n')).toEqual([0, 0, 0, 0]);
    expectAnnounced();
    const sent = emulator.messages(APP).find((m) => m.delivered)!;
    expect(JSON.parse(outputs.announce!['message-ids']!)).toEqual([sent.message_id]);
    expect(results.at(-1)!.stdout).toContain(`announced to all devices, message_ids ["${sent.message_id}"]`);
    const upload = (job.steps as { uses?: string; with?: { path: string } }[]).find((s) => s.uses?.startsWith('actions/upload-artifact'));
    for (const path of upload!.with!.path.split('\n').filter(Boolean)) expect(existsSync(join(work, path.trim())), path).toBe(true);
    for (const r of results) expect((r.stdout + r.stderr).replace(`::add-mask::${SECRET}`, '')).not.toContain(SECRET);
  });

  it('"Re-run jobs" sends nothing twice: with the journals restored, the second attempt is skipped', async () => {
    const first = await runJob(SECRET);
    expect(first.results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(first.outputs.announce!.skipped).toBe('false');
    // A re-run's runner starts without the first attempt's files: the report is rebuilt from the journal.
    const report = readFileSync(join(work, 'pushctl-report.json'), 'utf8');
    rmSync(join(work, 'pushctl-report.json'));
    const again = await runJob(SECRET);
    expect(again.results.map((r) => r.code), again.results.map((r) => r.stderr + r.stdout).join('\n')).toEqual([0, 0, 0, 0]);
    expect(again.outputs.announce!.skipped).toBe('true');
    expect(again.outputs.announce!['message-ids']).toBe(first.outputs.announce!['message-ids']);
    expect(again.outputs.announce!.report).toBe('pushctl-report.json');
    expect(JSON.parse(readFileSync(join(work, 'pushctl-report.json'), 'utf8'))).toEqual(JSON.parse(report));
    expect(emulator.messages(APP).filter((m) => m.delivered)).toHaveLength(1);
    const steps = job.steps as Step[];
    const restore = steps.find((step) => step.uses?.startsWith('actions/cache/restore@'));
    const save = steps.find((step) => step.uses?.startsWith('actions/cache/save@')) as Step & { if?: string };
    expect(restore?.with?.path).toBe(save?.with?.path);
    expect(save?.if).toBe('always()');
    expect(String(save?.with?.key)).toContain('github.run_attempt');
    expect(String(restore?.with?.['restore-keys'])).toContain('pushctl-runs-${{ github.run_id }}-');
  });

  it('fails the job when the service refuses', async () => {
    const { results } = await runJob('wrong-secret');
    expect(results.at(-1)!.code).toBe(4);
    expect(results.at(-1)!.stdout).toContain('::error');
    expect(emulator.messages(APP)).toEqual([]);
  });
});

describe('examples/gitlab-ci.yml', () => {
  const pipeline = yaml('gitlab-ci.yml');
  const job = pipeline['announce-release'] as {
    before_script: string[];
    script: string[];
    after_script: string[];
    variables: Record<string, string>;
    artifacts: { paths: string[]; reports: { dotenv: string } };
  };
  // Project variables (Settings → CI/CD → Variables) and the predefined CI_COMMIT_TAG; PUSHCTL_REGION left unset.
  // The recipe's checksum is a placeholder for the release the user reviewed; the test's tarball has its own.
  const vars = (secret: string, sha256 = TARBALL_SHA256) => ({ ...job.variables, PUSHCTL_RELEASE_SHA256: sha256, CI_COMMIT_TAG: 'v1.4.0', PUSHCTL_APP_ID: APP, PUSHCTL_APP_SECRET: secret });
  // The runner runs before_script and script in one shell that stops at the first failing line; plain sh is the strictest.
  const runJob = async (secret: string, sha256?: string) => ({
    script: await runScript(['sh', '-e', '-c'], [...job.before_script, ...job.script].join('\n'), vars(secret, sha256)),
    after: await runScript(['sh', '-c'], job.after_script.join('\n'), vars(secret, sha256)),
  });

  it('runs one job per tag at a time, across runners (resource_group)', () => {
    expect((pipeline['announce-release'] as { resource_group?: string }).resource_group).toBe('announce-release-$CI_COMMIT_TAG');
  });

  it('installs pushctl from a pinned tarball, never a registry name', () => {
    expect(job.variables.PUSHCTL_RELEASE_URL).toMatch(/\/v\d+\.\d+\.\d+\/pushctl-\d+\.\d+\.\d+\.tgz$/);
    expect(job.variables.PUSHCTL_RELEASE_SHA256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(job)).not.toMatch(/npx|npm install[^"]*pushctl@/);
  });

  it('announces the release on a tag and exports the message_ids as a dotenv report', async () => {
    const { script, after } = await runJob(SECRET);
    expect(script.code, script.stderr).toBe(0);
    expectAnnounced();
    for (const path of job.artifacts.paths) expect(existsSync(join(work, path)), path).toBe(true);
    const [message] = emulator.messages(APP);
    expect(readFileSync(join(work, job.artifacts.reports.dotenv), 'utf8')).toBe(`PUSHCTL_MESSAGE_IDS=${message!.message_id}\n`);
    expect(JSON.parse(after.stdout)).toMatchObject({ ok: true });
    expect(script.stdout + script.stderr + after.stdout).not.toContain(SECRET);
  });

  it('stops before running anything when the tarball does not match its checksum', async () => {
    const { script } = await runJob(SECRET, '0'.repeat(64));
    expect(script.code).not.toBe(0);
    expect(existsSync(join(bin, 'pushctl'))).toBe(false);
    expect(emulator.messages(APP)).toEqual([]);
  });

  it('fails the job when the service refuses, and after_script still shows the outcome', async () => {
    const { script, after } = await runJob('wrong-secret');
    expect(script.code).toBe(4);
    expect(JSON.parse(after.stdout)).toMatchObject({ ok: false });
  });
});
