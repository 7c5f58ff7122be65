// Files of other users are not settings (docs/behaviour.md#trust; issue 32 rows 2 and 3). A config file owned by
// another user, or found in a directory others can write without the sticky bit, is refused before it is
// loaded (a JavaScript one would run), with one line naming the file, its owner and how to trust it. The
// tests run pushctl as root on files chown'ed to `nobody`: git's rule exempts root's own files, not others'.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const NOBODY = (() => {
  try {
    const entry = readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('nobody:'));
    return entry ? { uid: Number(entry.split(':')[2]), gid: Number(entry.split(':')[3]) } : undefined;
  } catch {
    return undefined;
  }
})();
const AS_ROOT = process.platform !== 'win32' && process.getuid?.() === 0 && NOBODY !== undefined;
if (!AS_ROOT) console.log('config-trust: skipped: files owned by another user need root (to chown them to nobody) and a nobody user');

let base: string;
let home: string;
let listener: Server;
let requests = 0;
let listenerUrl = '';
beforeAll(async () => {
  listener = createServer((_req, res) => {
    requests++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'pushctl-trust-'));
  // HOME elsewhere: the project is outside home, where the search has no home directory to stop at.
  home = mkdtempSync(join(tmpdir(), 'pushctl-trust-home-'));
  requests = 0;
  return () => {
    rmSync(base, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  };
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...extra });
const dirIn = (parent: string, name: string, mode = 0o755) => {
  const dir = join(parent, name);
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
};
const fileIn = (dir: string, name: string, text: string, owner?: { uid: number; gid: number }) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  chmodSync(file, 0o644);
  if (owner) chownSync(file, owner.uid, owner.gid);
  return file;
};
/** A JavaScript config that leaves a mark when it runs, and reads the secret as an attacker's would. */
const markingConfig = (mark: string) => `require('node:fs').writeFileSync(${JSON.stringify(mark)}, String(process.env.PUSHCTL_APP_SECRET));\nmodule.exports = { appId: 'evil' };\n`;

describe.runIf(AS_ROOT)('a config file another user owns', () => {
  it('.pushctlrc owned by nobody with baseUrl on loopback: refused, the secret never goes there (row 3)', async () => {
    const project = dirIn(base, 'project');
    const rc = fileIn(project, '.pushctlrc', JSON.stringify({ appId: 'a', baseUrl: listenerUrl }), NOBODY);
    const r = await runCli(['send', '--all', '--title', 'x'], { env: env({ PUSHCTL_APP_SECRET: 'trusting-S3CRET' }), cwd: project });
    expect(r.code, r.stderr).toBe(6);
    expect(requests).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([`error: config file ${rc} is owned by nobody (uid ${NOBODY!.uid}), not by you: pushctl does not take settings from another user's file`]);
    expect(r.stderr).toContain(`--config ${rc}`);
  });

  it('pushctl.config.js owned by nobody in a world-writable parent, run in a subdirectory: never executed (row 2)', async () => {
    const shared = dirIn(base, 'shared', 0o777);
    const config = fileIn(shared, 'pushctl.config.js', markingConfig(join(base, 'ran')), NOBODY);
    const sub = dirIn(shared, 'sub');
    for (const command of [['config'], ['check'], ['send', '--all', '--title', 'x']]) {
      const r = await runCli(command, { env: env({ PUSHCTL_APP_SECRET: 'trusting-S3CRET' }), cwd: sub });
      expect(r.code, `${command[0]}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toContain(config);
      expect(r.stderr).toContain('nobody');
      expect(existsSync(join(base, 'ran'))).toBe(false);
    }
  });

  it('YAML named by PUSHCTL_CONFIG and owned by nobody: refused; named with --config: trusted', async () => {
    const dir = dirIn(base, 'conf');
    const yaml = fileIn(dir, 'pushctl.yaml', 'appId: from-yaml\n', NOBODY);
    const byEnv = await runCli(['config'], { env: env({ PUSHCTL_CONFIG: yaml }), cwd: base });
    expect(byEnv.code, byEnv.stderr).toBe(6);
    expect(byEnv.stderr).toContain(`config file ${yaml} is owned by nobody`);
    const byFlag = await runCli(['config', '--json', '--config', yaml], { env: env(), cwd: base });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(byFlag.stdout).toContain('from-yaml');
  });

  it('a project inside a directory nobody owns: the search stops below it, outside home', async () => {
    const theirs = dirIn(base, 'theirs');
    fileIn(theirs, '.pushctlrc.json', JSON.stringify({ appId: 'theirs' }));
    const project = dirIn(theirs, 'project');
    chownSync(theirs, NOBODY!.uid, NOBODY!.gid);
    const r = await runCli(['config', '--json'], { env: env(), cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('theirs');
  });
});

describe.runIf(process.platform !== 'win32')('a config file in a directory others can write', () => {
  it('without the sticky bit: refused, naming the directory and its mode, never executed', async () => {
    const open = dirIn(base, 'open', 0o777);
    const config = fileIn(open, 'pushctl.config.js', markingConfig(join(base, 'ran')));
    const r = await runCli(['config'], { env: env(), cwd: open });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`config file ${config} is in ${open}, which other users can write (mode 777, no sticky bit)`);
    expect(existsSync(join(base, 'ran'))).toBe(false);
  });

  it('with the sticky bit (as /tmp): read, since no one can replace the owner’s file', async () => {
    const sticky = dirIn(base, 'sticky', 0o1777);
    fileIn(sticky, '.pushctlrc.json', JSON.stringify({ appId: 'sticky-app' }));
    const r = await runCli(['config', '--json'], { env: env(), cwd: sticky });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('sticky-app');
  });
});

describe('the action', () => {
  it('never runs a JavaScript config (a pull request can change one), with a clear message', async () => {
    const work = dirIn(base, 'workspace');
    fileIn(work, 'pushctl.config.js', markingConfig(join(base, 'ran')));
    fileIn(work, 'msg.json', '{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"t"}}\n');
    fileIn(work, 'out', '');
    fileIn(work, 'summary', '');
    const actionEnv = env({ GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work, GITHUB_OUTPUT: join(work, 'out'), GITHUB_STEP_SUMMARY: join(work, 'summary'), INPUT_FILE: 'msg.json', 'INPUT_APP-ID': 'app', 'INPUT_APP-SECRET': 'action-S3CRET', 'INPUT_BASE-URL': listenerUrl });
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [ACTION], { cwd: work, env: actionEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(r.code, r.out).toBe(6);
    expect(existsSync(join(base, 'ran'))).toBe(false);
    expect(requests).toBe(0);
    expect(r.out).toContain('is JavaScript, which the action does not run');
    expect(parseOutputFile(readFileSync(join(work, 'out'), 'utf8'))['exit-code']).toBe('6');
  });
});
