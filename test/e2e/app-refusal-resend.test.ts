// A run the service refused for the app itself — a wrong secret, an unknown app ID, the SDK switched off —
// delivered nothing, and the summary says "fix that and resend" (docs/behaviour.md#retries). Following that
// advice must reach every recipient: the batches the refusal answered, not only those it stopped from
// starting. The built binary against `pushctl serve --record` on port 0, every delivery counted from the record.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { deliveredCounts, wholeLines } from '../helpers/record-lines.js';

const APP = 'refusal-app';
const SECRET = 'refusal-S3CR3T-77a1';
const IDS = Array.from({ length: 40 }, (_, i) => `refused-${String(i).padStart(2, '0')}`);

let dir: string;
let served: ServedCli;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-app-refusal-'));
  served = await serveCli(['--app', `${APP}:${SECRET}`, '--rate', '0', '--record', join(dir, 'record.jsonl')]);
});
afterAll(async () => {
  await served.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** How many times the emulator delivered each of IDS (dry runs are not deliveries). */
function deliveries(): Map<string, number> {
  const counts = deliveredCounts(join(dir, 'record.jsonl'));
  return new Map(IDS.map((id) => [id, counts.get(id) ?? 0]));
}

const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;

describe('a run the service refused for the app, then fixed and resent', () => {
  it('reaches every recipient exactly once, and says what is left before the fix', async () => {
    const journals = mkdtempSync(join(dir, 'runs-'));
    const env = (secret: string) => cleanEnv({ PUSHCTL_APP_SECRET: secret, PUSHCTL_JOURNAL_DIR: journals });
    const send = ['send', '--base-url', served.url, '--app-id', APP, '--title', 'Refused then fixed', '--client-id', IDS.join(','), '--batch-size', '10', '--concurrency', '2', '--json'];

    const wrong = await runCli(send, { env: env('not-the-secret') });
    // The service said no: exit 4, its code and meaning in the reasons.
    expect(wrong.code, wrong.stderr).toBe(4);
    expect(wrong.stdout).toContain('21004');
    const runId = json(wrong).run_id as string;
    // Nothing was delivered, so every recipient is left to send once the secret is right.
    expect(json(wrong)).toMatchObject({ summary: { recipients: { total: IDS.length, accepted: 0, not_sent: IDS.length } } });
    const shown = json(await runCli(['runs', 'show', runId, '--json'], { env: env(SECRET) })).run as Record<string, unknown>;
    expect(shown).toMatchObject({ summary: { recipients: { total: IDS.length, not_sent: IDS.length } } });

    // The printed advice, with the right secret.
    const resent = await runCli(['resend', runId, '--base-url', served.url, '--app-id', APP, '--json'], { env: env(SECRET) });
    expect(resent.code, resent.stderr).toBe(0);
    expect([...deliveries().values()]).toEqual(IDS.map(() => 1));
    const family = json(await runCli(['runs', 'show', json(resent).run_id as string, '--json'], { env: env(SECRET) })).run as Record<string, unknown>;
    expect(family).toMatchObject({ family: { state: 'sent', summary: { recipients: { total: IDS.length, accepted: IDS.length, rejected: 0 } } } });
  });

  it('a first resend refused too, then the run resent again: runs leaves nothing on any line, as runs show of each says', async () => {
    const journals = mkdtempSync(join(dir, 'runs-'));
    const env = (secret: string) => cleanEnv({ PUSHCTL_APP_SECRET: secret, PUSHCTL_JOURNAL_DIR: journals });
    const ids = IDS.slice(0, 4).map((id) => `twice-${id}`);
    const first = await runCli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Resent twice', '--client-id', ids.join(','), '--json'], { env: env('not-the-secret') });
    expect(first.code, first.stderr).toBe(4);
    const runId = json(first).run_id as string;
    const resend = (secret: string) => runCli(['resend', runId, '--base-url', served.url, '--app-id', APP, '--json'], { env: env(secret) });
    const refused = await resend('still-not-the-secret');
    expect(refused.code, refused.stderr).toBe(4);
    const fixed = await resend(SECRET);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(json(fixed)).toMatchObject({ summary: { recipients: { accepted: ids.length } } });
    // The refused resend's recipients went with the later resend of the same run: its line leaves none.
    const listed = (json(await runCli(['runs', '--json'], { env: env(SECRET) })).runs as { run_id: string; resent_by?: string[] }[]);
    expect(listed.find((r) => r.run_id === json(refused).run_id)?.resent_by).toEqual([json(fixed).run_id]);
    const table = await runCli(['runs'], { env: env(SECRET) });
    const rows = table.stdout.split('\n').filter((line) => /^\d{8}-/.test(line));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.split(/ {2,}/)[3], table.stdout).toBe('-');
    expect(table.stdout).toMatch(new RegExp(`^${json(refused).run_id as string} +rejected, resent `, 'm'));
    const shown = json(await runCli(['runs', 'show', json(refused).run_id as string, '--json'], { env: env(SECRET) })).run as Record<string, unknown>;
    // runs show says it as runs does: the later resend of the run sent what the refused one left.
    expect(shown).toMatchObject({ family: { state: 'sent' }, resent_by: [json(fixed).run_id] });
    // A start of an id that three runs share names them, for the user to pick one.
    const runIds = rows.map((row) => row.split(' ')[0]!);
    const ambiguous = await runCli(['runs', 'show', runIds[0]!.slice(0, 9)], { env: env(SECRET) });
    expect(ambiguous.code).toBe(2);
    const named = /^error: "\d{8}-" matches 3 runs: (.*)$/m.exec(ambiguous.stderr)?.[1];
    expect(named?.split(', ').sort(), ambiguous.stderr).toEqual([...runIds].sort());
  });

  it('a batch refused as too many client IDs (21006) is sent by the resend its hint leads to, with a lower --batch-size', async () => {
    const journals = mkdtempSync(join(dir, 'runs-'));
    const env = cleanEnv({ PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals });
    // A service whose limit is lower than the documented 1000.
    const strict = await serveCli(['--app', `${APP}:${SECRET}`, '--rate', '0', '--max-client-ids', '15', '--record', join(dir, 'strict.jsonl')]);
    try {
      const sent = await runCli(['send', '--base-url', strict.url, '--app-id', APP, '--title', 'Too many', '--client-id', IDS.join(','), '--json'], { env });
      expect(sent.code, sent.stderr).toBe(4);
      expect(json(sent)).toMatchObject({ state: 'rejected', summary: { recipients: { total: IDS.length, not_sent: IDS.length } }, batches: [{ code: 21006 }] });
      const resent = await runCli(['resend', json(sent).run_id as string, '--base-url', strict.url, '--app-id', APP, '--batch-size', '15', '--json'], { env });
      expect(resent.code, resent.stderr).toBe(0);
      const counts = new Map<string, number>();
      for (const line of wholeLines(join(dir, 'strict.jsonl'))) for (const id of (JSON.parse(line) as { body: { condition: { client_ids: string[] } } }).body.condition.client_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(IDS.map((id) => counts.get(id))).toEqual(IDS.map(() => 1));
    } finally {
      await strict.stop();
    }
  });

  it('a journal an earlier pushctl closed counting the refused batches rejected: runs lists what runs show and resend read', async () => {
    const journals = mkdtempSync(join(dir, 'runs-'));
    const env = cleanEnv({ PUSHCTL_APP_SECRET: 'not-the-secret', PUSHCTL_JOURNAL_DIR: journals });
    const wrong = await runCli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Old journal', '--client-id', IDS.join(','), '--batch-size', '10', '--concurrency', '1', '--json'], { env });
    expect(wrong.code, wrong.stderr).toBe(4);
    const runId = json(wrong).run_id as string;
    // Its closing record as pushctl wrote it before: the refused batch under rejected.
    const path = join(journals, `${runId}.jsonl`);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const end = JSON.parse(lines.at(-1)!) as { summary: Record<'batches' | 'recipients', Record<string, number>> };
    end.summary.batches = { ...end.summary.batches, rejected: 1, not_sent: end.summary.batches.not_sent! - 1 };
    end.summary.recipients = { ...end.summary.recipients, rejected: 10, not_sent: end.summary.recipients.not_sent! - 10 };
    lines[lines.length - 1] = JSON.stringify(end);
    writeFileSync(path, `${lines.join('\n')}\n`);

    const listed = (json(await runCli(['runs', '--json'], { env })).runs as { run_id: string; state: string; summary: object }[]).find((r) => r.run_id === runId);
    const shown = json(await runCli(['runs', 'show', runId, '--json'], { env })).run as { state: string; summary: object };
    expect(shown).toMatchObject({ state: 'rejected', summary: { recipients: { not_sent: IDS.length, rejected: 0 } } });
    expect(listed).toMatchObject({ state: shown.state, summary: shown.summary });
  });
});
