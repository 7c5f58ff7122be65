// The CI recipes in examples/ are run here, command for command, against the emulator: the workflow files
// are parsed, their CI expressions and variables replaced by test values, and their shell steps run as the
// CI would run them, with `npx pushctl@...` answered by the built CLI.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BIN, cleanEnv } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'ci-S3CR3T-5d1e';
const APP = 'ci-app';
const yaml = (name: string) => load(readFileSync(join(ROOT, 'examples', name), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let emulator: Emulator;
let bin: string;
let work: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: APP, secret: SECRET }] });
  bin = mkdtempSync(join(tmpdir(), 'pushctl-npx-'));
  // `npx --yes pushctl@<range> ...` runs the CLI built from this checkout; any other use of npx fails.
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\n[ "$1" = "--yes" ] && shift\ncase "$1" in pushctl|pushctl@*) shift; exec "${process.execPath}" "${BIN}" "$@";; esac\necho "unexpected npx call: $*" >&2\nexit 127\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
});
afterAll(async () => {
  await emulator.close();
  rmSync(bin, { recursive: true, force: true });
});
beforeEach(() => {
  emulator.clear();
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

/** Runs a script as the CI would, in the checkout, with only the given variables (and the npx stand-in). */
function runScript(shell: string[], script: string, vars: Record<string, string>): Promise<Ran> {
  // A variable the script uses but nobody sets would silently be empty: catch it here.
  for (const [, name] of script.matchAll(/\$\{?([A-Za-z_]\w*)/g)) expect(Object.keys(vars), `$${name} is not set`).toContain(name);
  const env = cleanEnv({ ...vars, HOME: work, XDG_CONFIG_HOME: join(work, '.config'), PATH: `${bin}:${process.env.PATH}`, PUSHCTL_BASE_URL: emulator.url });
  return new Promise((resolve, reject) => {
    const child = spawn(shell[0]!, [...shell.slice(1), script], { cwd: work, env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What the CI offers: its expressions (GitHub) or predefined and project variables (GitLab). */
const ci = (secret: string) => ({
  'github.event.release.tag_name || inputs.version': 'v1.4.0',
  'github.event.release.name || inputs.notes': 'Faster sends',
  'vars.PUSHCTL_APP_ID': APP,
  'secrets.PUSHCTL_APP_SECRET': secret,
  // Unset repository variables read as empty strings, which pushctl treats as unset.
  'vars.PUSHCTL_REGION': '',
});

function expectAnnounced(): void {
  const [message, ...others] = emulator.messages(APP);
  expect(others).toEqual([]);
  expect(message!.body).toMatchObject({
    condition: { type: 0 },
    notification: { title: 'Version 1.4.0 is out', desc: expect.any(String), open_content: 'https://example.com/releases/1.4.0' },
  });
  expect(message!.delivered).toBe(true);
  const result = JSON.parse(readFileSync(join(work, 'pushctl-result.json'), 'utf8'));
  expect(result).toMatchObject({ ok: true, message_ids: [message!.message_id] });
  JSON.parse(readFileSync(join(work, 'pushctl-report.json'), 'utf8'));
}

describe('examples/github-actions.yml', () => {
  const workflow = yaml('github-actions.yml');
  const job = Object.values(workflow.jobs as Record<string, any>)[0]; // eslint-disable-line @typescript-eslint/no-explicit-any
  const expand = (env: Record<string, string> | undefined, secret: string) =>
    Object.fromEntries(
      Object.entries(env ?? {}).map(([k, v]) => [
        k,
        String(v).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
          const table: Record<string, string> = ci(secret);
          expect(Object.keys(table), `unknown expression ${expr}`).toContain(expr);
          return table[expr]!;
        }),
      ]),
    );
  /** Runs the job's `run:` steps in order, as a runner would; stops at the first failure. */
  const runJob = async (secret: string) => {
    const results: Ran[] = [];
    for (const step of job.steps as { run?: string; shell?: string; env?: Record<string, string> }[]) {
      if (step.run === undefined) continue;
      // A step without `shell:` runs `bash -e`; `shell: bash` adds pipefail.
      const shell = step.shell === 'bash' ? ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '-c'] : ['bash', '-e', '-c'];
      const r = await runScript(shell, step.run, { ...expand(job.env, secret), ...expand(step.env, secret) });
      results.push(r);
      if (r.code !== 0) break;
    }
    return results;
  };

  it('announces the release: validate, then send with --json and --report, artifacts in place', async () => {
    const results = await runJob(SECRET);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expectAnnounced();
    const upload = (job.steps as { uses?: string; with?: { path: string } }[]).find((s) => s.uses?.startsWith('actions/upload-artifact'));
    for (const path of upload!.with!.path.split('\n').filter(Boolean)) expect(existsSync(join(work, path.trim())), path).toBe(true);
    for (const r of results) expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('fails the job when the service refuses, despite the tee', async () => {
    const results = await runJob('wrong-secret');
    expect(results.at(-1)!.code).toBe(4);
    expect(JSON.parse(readFileSync(join(work, 'pushctl-result.json'), 'utf8'))).toMatchObject({ ok: false });
  });
});

describe('examples/gitlab-ci.yml', () => {
  const pipeline = yaml('gitlab-ci.yml');
  const job = pipeline['announce-release'] as { script: string[]; after_script: string[]; variables: Record<string, string>; artifacts: { paths: string[] } };
  // Project variables (Settings → CI/CD → Variables) and the predefined CI_COMMIT_TAG; PUSHCTL_REGION left unset.
  const vars = (secret: string) => ({ ...job.variables, CI_COMMIT_TAG: 'v1.4.0', PUSHCTL_APP_ID: APP, PUSHCTL_APP_SECRET: secret });
  // The runner runs the script lines in one shell that stops at the first failing line; plain sh is the strictest.
  const runJob = async (secret: string) => ({
    script: await runScript(['sh', '-e', '-c'], job.script.join('\n'), vars(secret)),
    after: await runScript(['sh', '-c'], job.after_script.join('\n'), vars(secret)),
  });

  it('announces the release on a tag: validate, then send with --json and --report, artifacts in place', async () => {
    const { script, after } = await runJob(SECRET);
    expect(script.code, script.stderr).toBe(0);
    expectAnnounced();
    for (const path of job.artifacts.paths) expect(existsSync(join(work, path)), path).toBe(true);
    expect(JSON.parse(after.stdout)).toMatchObject({ ok: true });
    expect(script.stdout + script.stderr + after.stdout).not.toContain(SECRET);
  });

  it('fails the job when the service refuses, and after_script still shows the outcome', async () => {
    const { script, after } = await runJob('wrong-secret');
    expect(script.code).toBe(4);
    expect(JSON.parse(after.stdout)).toMatchObject({ ok: false });
  });
});
