// `pushctl validate` under GitHub Actions: findings become annotations on stderr at the value's position,
// and stdout stays the command's own (the --json document).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-annotate-'));
  mkdirSync(join(dir, 'messages'));
  writeFileSync(join(dir, 'messages/bad.json'), '{\n  "type": 1,\n  "time_to_live": 3600,\n  "condition": {\n    "type": 1,\n    "targeting": { "country": ["US", "UK"] }\n  },\n  "notification": { "title": "Hi" }\n}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const validate = (args: string[], env: Record<string, string>) =>
  runCli(['validate', ...args], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...env }), cwd: join(dir, 'messages') });

describe('annotations under GITHUB_ACTIONS=true', () => {
  it('points at the offending value, relative to the workspace, and leaves --json stdout alone', async () => {
    const r = await validate(['-f', 'bad.json', '--json'], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^::error file=messages\/bad\.json,line=6,col=38,title=pushctl%3A [\w-]+::condition\.targeting\.country\[1\]: /m);
    expect(JSON.parse(r.stdout)).toMatchObject({ valid: false });
  });

  it('annotates a value from a flag without a file position', async () => {
    const r = await validate(['-f', 'bad.json', '--country', 'GB,UK'], { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^::error title=pushctl%3A [\w-]+::condition\.targeting\.country\[1\]: /m);
  });

  it('prints no workflow commands outside GitHub Actions', async () => {
    const r = await validate(['-f', 'bad.json'], {});
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('::error');
  });
});
