// The pure rules of a run of several targets (docs/behaviour.md#targets): which profiles, the exit status,
// how the runs list folds a family, and the one resend command.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freshRunId } from '../../../src/commands/shared/own-run.js';
import { CliError } from '../../../src/errors.js';
import { familyAdvice } from '../../../src/commands/shared/target-advice.js';
import { familyFlags } from '../../../src/commands/shared/resend-command.js';
import { resendWithInput } from '../../../src/commands/shared/resume.js';
import { vouchedFlags } from '../../../src/commands/shared/vouched-flags.js';
import type { RunView } from '../../../src/journal/read-run.js';
import { joinProfiles, profileSecretEnv, targetEnv, targetProfiles } from '../../../src/commands/shared/target-list.js';
import { familyState, foldFamilies } from '../../../src/journal/target-family.js';
import type { RunOverview } from '../../../src/journal/run-state.js';
import { formatTargetsTable, targetsDocument, targetsExitCode, type TargetResult } from '../../../src/output/targets.js';
import { plainStyle } from '../../../src/output/style.js';
import { checkDistinct, limitersFor } from '../../../src/commands/shared/target-setup.js';

describe('targetProfiles', () => {
  it.each([
    [undefined, {}, undefined],
    ['global', {}, undefined],
    ['global,india', {}, ['global', 'india']],
    [' global , india ', {}, ['global', 'india']],
    [undefined, { PUSHCTL_PROFILE: 'global,india' }, ['global', 'india']],
    // The flag wins over the environment, as for one profile.
    ['global', { PUSHCTL_PROFILE: 'global,india' }, undefined],
    [undefined, { PUSHCTL_PROFILE: '' }, undefined],
  ] as const)('--profile %j, env %j → %j', (flag, env, expected) => {
    expect(targetProfiles(flag, env)).toEqual(expected);
  });

  it.each([
    ['global,,india', 'has an empty profile name'],
    ['global,india,global', 'names profile "global" twice'],
  ])('refuses %j (exit 2): %s', (flag, words) => {
    const error = (() => {
      try {
        targetProfiles(flag, {});
      } catch (e) {
        return e as CliError;
      }
    })();
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toContain(words);
  });

  it('the flag repeated is one comma list', () => {
    expect(['global', 'india'].reduce<string | undefined>((previous, value) => joinProfiles(value, previous), undefined)).toBe('global,india');
  });

  it("a profile's own secret variable stands as PUSHCTL_APP_SECRET for its target only", () => {
    expect(profileSecretEnv('eu-west.2')).toBe('PUSHCTL_APP_SECRET_EU_WEST_2');
    const env = { PUSHCTL_APP_SECRET_INDIA: 'i', PUSHCTL_PROFILE: 'global,india', HOME: '/h' };
    expect(targetEnv(env, 'india')).toEqual({ PUSHCTL_APP_SECRET_INDIA: 'i', PUSHCTL_APP_SECRET: 'i', HOME: '/h' });
    expect(targetEnv(env, 'global')).toEqual({ PUSHCTL_APP_SECRET_INDIA: 'i', HOME: '/h' });
  });
});

describe('targetsExitCode', () => {
  it.each([
    [[0, 0], 0],
    [[0, 4], 7],
    [[7, 5], 7],
    [[0, 7], 7],
    [[4, 4], 4],
    [[5, 4], 5],
    [[130, 0], 7],
  ])('%j → %i', (codes, expected) => {
    expect(targetsExitCode(codes)).toBe(expected);
  });
});

describe('the runs list', () => {
  const counts = (accepted: number, total: number) => ({ total, accepted, rejected: 0, in_doubt: 0, not_sent: total - accepted });
  const run = (id: string, extra: Partial<RunOverview> = {}): RunOverview => ({
    run_id: id,
    path: `/runs/${id}.jsonl`,
    started_at: '2026-11-24T19:00:00.000Z',
    app_id: `app-${id}`,
    host: `host-${id}`,
    dry_run: false,
    state: 'sent',
    exit_code: 0,
    title: 'Hi',
    summary: { batches: counts(1, 1), recipients: counts(10, 10) },
    ...extra,
  });

  it('folds a family into one line where its newest member stood, its counts added up', () => {
    const listed = foldFamilies([run('c'), run('b2', { targets: 'b1', profile: 'india', state: 'partly_sent', exit_code: 7, summary: { batches: counts(1, 1), recipients: counts(4, 10) } }), run('b1', { targets: 'b1', profile: 'global' }), run('a')]);
    expect(listed.map((r) => r.run_id)).toEqual(['c', 'b1', 'a']);
    const family = listed[1] as RunOverview & { target_runs: RunOverview[] };
    expect(family).toMatchObject({ state: 'partly_sent', exit_code: 7, app_id: 'app-b1, app-b2', summary: { batches: { total: 2, accepted: 2 }, recipients: { total: 20, accepted: 14, not_sent: 6 } } });
    expect(family.target_runs.map((r) => r.profile)).toEqual(['global', 'india']);
  });

  it.each([
    [['sent', 'sent'], 'sent'],
    [['sent', 'rejected'], 'partly_sent'],
    [['rejected', 'not_sent'], 'rejected'],
    [['sent', 'killed'], 'killed'],
    [['running', 'killed'], 'running'],
  ] as const)('the family of %j reads %s', (states, expected) => {
    expect(familyState(states)).toBe(expected);
  });
});

describe('the resend command of a family', () => {
  it('names the family and keeps the settings flags but --profile (each target has its own in its journal)', () => {
    expect(familyFlags(['send', '--profile', 'global,india', '-c', 'p.json', '--timeout=5s', '--insecure', '--title', 'x'])).toEqual(['-c', 'p.json', '--timeout', '5s', '--insecure']);
    const advice = familyAdvice('20261124-190000-abcd', [{ notSent: 3, inDoubt: 1 }, { notSent: 2, inDoubt: 0 }], ['send', '--profile=global,india', '-c', 'p.json']);
    expect(advice).toEqual({ command: 'pushctl resend 20261124-190000-abcd -c p.json', includeInDoubtCommand: 'pushctl resend 20261124-190000-abcd -c p.json --include-in-doubt', notSent: 5, inDoubt: 1, unit: 'recipients' });
    expect(familyAdvice('f', [{ notSent: 0, inDoubt: 0 }], [])).toBeUndefined();
  });

  it('one target resent with its input given again names its own profile, never the list resend refuses', () => {
    const argv = ['send', '--profile', 'global,india', '-c', 'p.json', '--client-ids-file', 'ids.txt'];
    const target = { header: { run_id: 'r-india', argv, targets: 'r-global', profile: 'india', input: '/w/ids.txt' }, incomplete: { reason: 'cut short' }, results: [{ attempts: 1 }] } as unknown as RunView;
    const here = (flags: readonly string[]) => vouchedFlags(flags, [], true);
    expect(resendWithInput(target, 'r-india', here)).toBe('pushctl resend r-india --client-ids-file /w/ids.txt -c p.json --profile india');
    const alone = { ...target, header: { run_id: 'r', argv: ['send', '--profile', 'staging', '--client-ids-file', 'ids.txt'], input: '/w/ids.txt' } } as unknown as RunView;
    expect(resendWithInput(alone, 'r', here)).toBe('pushctl resend r --client-ids-file /w/ids.txt --profile staging');
    // A journal from elsewhere names no file on its own word: the config and the input only as given first-hand
    // (-c and --config are one flag), else a placeholder for the input (docs/behaviour.md#trust).
    expect(resendWithInput(target, 'r-india', (flags) => vouchedFlags(flags, ['--config', 'p.json']))).toBe("pushctl resend r-india --client-ids-file '<its client-ID file>' -c p.json --profile india");
    expect(resendWithInput(target, 'r-india')).toBe("pushctl resend r-india --client-ids-file '<its client-ID file>' --profile india");
  });
});

describe('two profiles that reach one app at one destination', () => {
  const target = (profile: string, appId: string, appIdFrom: string, baseUrlFrom: string) => ({
    profile,
    baseUrl: 'https://x.example',
    connection: { appId, baseUrl: new URL('https://x.example'), client: {} as never, announcement: '', sources: { appId: appIdFrom, baseUrl: baseUrlFrom } },
  });
  const refusal = (targets: Parameters<typeof checkDistinct>[0]): CliError => {
    try {
      checkDistinct(targets);
    } catch (error) {
      if (error instanceof CliError) return error;
      throw error;
    }
    throw new Error('not refused');
  };

  it('the hint names the setting given once for every profile, and only that one', () => {
    const error = refusal([target('eu', 'app', 'flag --app-id', 'config c.json (profile eu)'), target('us', 'app', 'flag --app-id', 'config c.json (profile us)')]);
    expect(error.message).toBe('profiles eu and us both send as app app to https://x.example: every recipient would get the message twice');
    expect(error.hint).toBe('the app ID (flag --app-id) applies to every profile: set "appId" in each profile of the config file instead');
    const both = refusal([target('eu', 'app', 'env PUSHCTL_APP_ID', 'region global (default)'), target('us', 'app', 'env PUSHCTL_APP_ID', 'region global (default)')]);
    expect(both.hint).toBe('the app ID (env PUSHCTL_APP_ID) and the base URL (region global (default)) apply to every profile: set "appId" and "baseUrl" (or "region") in each profile of the config file instead');
  });

  it('profiles of the config file that name the same app and URL are said to, not blamed on a flag', () => {
    const error = refusal([target('eu', 'app', 'config c.json (profile eu)', 'config c.json (profile eu)'), target('us', 'app', 'config c.json (profile us)', 'config c.json (profile us)')]);
    expect(error.hint).toBe('the config file gives profiles eu and us the same "appId" and "baseUrl": correct the one that is wrong, or send to one of them');
    expect(error.hint).not.toContain('--app-id');
  });

  it('apps that differ, or destinations that differ, are two targets', () => {
    expect(() => checkDistinct([target('eu', 'a', 'flag --app-id', 'x'), target('us', 'b', 'flag --app-id', 'x')])).not.toThrow();
  });
});

describe('rate limiters', () => {
  it('one per base URL: targets at one destination share it, targets at another have their own', () => {
    const target = (profile: string, baseUrl: string) => ({ profile, baseUrl, connection: { appId: profile, baseUrl: new URL(baseUrl), client: {} as never, announcement: '', sources: { appId: 'flag --app-id', baseUrl: 'flag --base-url' } } });
    const limiters = limitersFor([target('a', 'https://x.example'), target('b', 'https://y.example'), target('c', 'https://x.example')], 50);
    expect([...limiters.keys()]).toEqual(['https://x.example', 'https://y.example']);
    expect(limiters.get('https://x.example')).not.toBe(limiters.get('https://y.example'));
  });
});

describe('freshRunId', () => {
  it('never hands out the same id twice in one process, though no journal has it yet (two targets in one second)', () => {
    const draws = [0.5, 0.5, 0.75];
    const random = vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.25);
    try {
      const env = { PUSHCTL_JOURNAL_DIR: join(tmpdir(), `pushctl-no-runs-${process.pid}`) };
      const first = freshRunId(env);
      const second = freshRunId(env);
      expect(second).not.toBe(first);
      expect(first.slice(-4)).toBe('8000');
    } finally {
      random.mockRestore();
    }
  });
});

describe("several targets' headline", () => {
  const counts = (accepted: number, notSent: number) => ({ total: accepted + notSent, accepted, rejected: 0, in_doubt: 0, not_sent: notSent });
  const row = (profile: string, state: TargetResult['state'], exitCode: number, accepted: number, notSent: number): TargetResult => ({
    profile,
    appId: 'a',
    baseUrl: 'http://127.0.0.1:1',
    runId: `run-${profile}`,
    state,
    exitCode,
    summary: { batches: counts(accepted, notSent), recipients: counts(accepted, notSent) },
    messageIds: [],
  });
  const cases: [string, TargetResult[], number][] = [
    ['every target sent', [row('g', 'sent', 0, 2, 0), row('i', 'sent', 0, 2, 0)], 0],
    ['one partly', [row('g', 'partly_sent', 7, 1, 1), row('i', 'sent', 0, 2, 0)], 7],
    ['none reached', [row('g', 'not_sent', 5, 0, 2), row('i', 'not_sent', 5, 0, 2)], 5],
    ['every target found done', [row('g', 'skipped', 0, 2, 0), row('i', 'skipped', 0, 2, 0)], 0],
  ];
  it.each(cases)('%s: headed by the state --json and runs give it', (_, targets, exitCode) => {
    const outcome = { exitCode, dryRun: false, family: 'run-g', targets, warnings: [], notes: [] };
    const state = (targetsDocument(outcome) as { state: string }).state;
    const head = formatTargetsTable(outcome, plainStyle).split('\n')[0]!;
    expect(head).toMatch(new RegExp(`^[✓✗] ${state.replace('_', ' ')}: `));
    // --json's error is that headline (without the mark and the run), then the targets not sent in full.
    const { error } = targetsDocument(outcome) as { error?: { message: string } };
    const failed = targets.filter((t) => t.exitCode !== 0).map((t) => t.profile);
    if (exitCode === 0) expect(error).toBeUndefined();
    else expect(error?.message).toBe(`${head.slice(2).replace(/ \(run run-g\)$/, '')}; not in full: ${failed.join(', ')}`);
  });
});
