import { chmod } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { config } from '../../../src/commands/config/run.js';
import type { ConfigOptions } from '../../../src/commands/config/options.js';
import { printConfig } from '../../../src/output/config-report.js';
import type { SecretSink } from '../../../src/output/redact.js';
import { testCtx, useSandbox } from './helpers.js';

const canary = 'CANARY-s3cr3t-7d1f0a';

const box = useSandbox();

// The command as the CLI runs it: run, then print; the report and the exit code for the test to read.
async function configCommand(options: ConfigOptions, ctx: ReturnType<typeof testCtx>, scrubber?: SecretSink) {
  const outcome = await config(options, { ...ctx, ...(scrubber ? { scrubber } : {}) });
  printConfig(outcome, options, ctx);
  return outcome;
}
const showConfig = async (options: ConfigOptions, ctx: ReturnType<typeof testCtx>) => (await configCommand(options, ctx)).report;

describe('pushctl config', () => {
  it('shows each setting with its source, the secret only as set', async () => {
    const file = await box.write('home/project/.pushctlrc.json', JSON.stringify({ appId: 'file-app', profiles: { ci: { region: 'india' } } }));
    const ctx = testCtx({ cwd: box.project, env: { ...box.env, PUSHCTL_APP_SECRET: canary, PUSHCTL_PROFILE: 'ci' } });
    await showConfig({}, ctx);
    const out = ctx.out();
    expect(out).toContain(`config file ${file} (search)`);
    expect(out).toContain('profile     ci (env PUSHCTL_PROFILE)');
    expect(out).toContain(`app ID      file-app (config ${file})`);
    expect(out).toContain('app secret  set (env PUSHCTL_APP_SECRET)');
    expect(out).toContain(`region      india (config ${file} (profile ci))`);
    expect(out).toContain('base URL    https://ind-pushapi.twibida.com (region india');
    expect(out).toContain('timeout     10s (default)');
    expect(out + ctx.err()).not.toContain(canary);
  });

  it('shows unset values and no config file', async () => {
    const ctx = testCtx({ cwd: box.project, env: box.env });
    const report = await showConfig({}, ctx);
    expect(ctx.out()).toContain('config file none found');
    expect(ctx.out()).toContain('app ID      unset');
    expect(ctx.out()).toContain('app secret  unset');
    expect(report.appSecret).toEqual({ set: false, source: null });
  });

  it('prints one JSON document without the secret', async () => {
    const file = await box.write('home/project/.pushctlrc.json', JSON.stringify({ appId: 'a', appSecret: canary }), 0o600);
    await chmod(file, 0o600);
    const ctx = testCtx({ cwd: box.project, env: box.env });
    await showConfig({ json: true, region: 'india' }, ctx);
    // The --json envelope: ok and exit_code first, snake_case keys.
    const report = JSON.parse(ctx.out()) as Record<string, unknown>;
    expect(Object.keys(report).slice(0, 2)).toEqual(['ok', 'exit_code']);
    expect(report.app_secret).toEqual({ set: true, source: `config ${file}` });
    expect(report.region).toEqual({ value: 'india', source: 'flag --region', used: true });
    expect(report.app_id).toEqual({ value: 'a', source: `config ${file}` });
    expect(report.warnings).toEqual([]);
    expect(ctx.out() + ctx.err()).not.toContain(canary);
  });

  it.each([
    ['the secret file', { appSecretFile: 'secret.txt' }, ''],
    ['stdin', { appSecretStdin: true }, `${canary}\n`],
  ])('never shows a secret from %s, in either mode', async (_name, flags, stdin) => {
    await box.write('home/project/secret.txt', `${canary}\n`);
    for (const json of [false, true]) {
      const ctx = testCtx({ cwd: box.project, env: box.env, stdin });
      const report = await showConfig({ ...flags, json }, ctx);
      expect(report.appSecret.set).toBe(true);
      expect(ctx.out() + ctx.err()).not.toContain(canary);
      expect(JSON.stringify(report)).not.toContain(canary);
    }
  });

  it('warns (and does not fail) about a base URL that send would refuse, and hides URL credentials', async () => {
    const ctx = testCtx({ cwd: box.project, env: { ...box.env, PUSHCTL_BASE_URL: `http://user:${canary}@example.com` } });
    const report = await showConfig({}, ctx);
    expect(report.warnings.join('\n')).toContain('send would refuse this base URL');
    expect(ctx.err()).toContain('warning: send would refuse');
    expect(ctx.out() + ctx.err()).not.toContain(canary);
  });

  it('prints the permission warning on stderr, not stdout', async () => {
    const file = await box.write('home/project/.pushctlrc.json', JSON.stringify({ appSecret: canary }));
    await chmod(file, 0o644);
    const ctx = testCtx({ cwd: box.project, env: box.env });
    await showConfig({}, ctx);
    expect(ctx.err()).toContain('readable by group or others');
    expect(ctx.out()).not.toContain('readable');
    expect(ctx.out() + ctx.err()).not.toContain(canary);
  });

  it('configCommand returns exit 0 and tells the scrubber the secret', async () => {
    const seen: (string | undefined)[] = [];
    const ctx = testCtx({ cwd: box.project, env: { ...box.env, PUSHCTL_APP_SECRET: canary } });
    expect((await configCommand({}, ctx, { add: (s) => seen.push(s) })).exitCode).toBe(0);
    expect(seen).toContain(canary);
  });
});
