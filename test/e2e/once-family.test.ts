// A `--once` re-run that finds its key's run done answers for the whole family — the run and the resends that
// finished it (docs/behaviour.md#once, docs/behaviour.md#variants): what every run of it delivered, per
// language, the same in human output, --json, `runs show`, the action and the MCP tool. The built binary
// against `pushctl serve --chaos` on port 0, the chaos switched off between runs through its API.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runStep } from '../helpers/action-step.js';
import { BIN, cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { processStartTicks } from '../../src/journal/process-start.js';
import { pruneRuns } from '../../src/journal/retention.js';

const SECRET = 'once-family-S3CR3T-4c2d';
const APP = 'fam-app';
/** Each device's language; fr and fr-CA get the French variant, pt-BR the Portuguese, the rest the base. */
const LANGUAGES = ['en', 'fr', 'fr-CA', 'pt-BR', 'sw', ''];
const DEVICES = Array.from({ length: 30 }, (_, i) => ({ id: `fam-${String(i).padStart(2, '0')}`, language: LANGUAGES[i % LANGUAGES.length]! }));
/** The emulator's --devices CSV, which is also the client-ID file (docs/behaviour.md#variants). */
const DEVICES_CSV = `client_id,country,language,brand,model,os_version,app_version\n${DEVICES.map((d) => `${d.id},KE,${d.language},TECNO,Spark,33,1.0`).join('\n')}\n`;
const MESSAGE = {
  type: 1,
  time_to_live: 3600,
  notification: { title: 'New release', desc: 'Faster sends' },
  variants: { fr: { notification: { title: 'Nouvelle version' } }, pt: { notification: { title: 'Nova versão' } } },
};
/** The whole family's rows: every device accepted in the end, in its language. */
const ROWS = [
  { label: 'fr', total: 10 },
  { label: 'pt', total: 5 },
  { label: 'base', total: 15 },
];

let dir: string;
let served: ServedCli;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-once-family-'));
  writeFileSync(join(dir, 'devices.csv'), DEVICES_CSV);
  writeFileSync(join(dir, 'message.json'), JSON.stringify(MESSAGE));
  served = await serveCli(['--app', `${APP}:${SECRET}`, '--rate', '0', '--devices', join(dir, 'devices.csv')]);
});
afterAll(async () => {
  await served.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await chaos('off');
});

/** Sets the emulator's chaos; seeded, so the first run's failures are the same every time. */
async function chaos(spec: string, seed = 4): Promise<void> {
  const answer = await fetch(`${served.url}/v1/emulator/chaos`, { method: 'PUT', body: JSON.stringify({ spec, seed }) });
  expect(answer.status).toBe(200);
}

const env = (journals: string) => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals });
const json = (r: CliResult) => JSON.parse(r.stdout) as Record<string, unknown>;

interface Counts {
  total: number;
  accepted: number;
  rejected: number;
  in_doubt: number;
  not_sent: number;
}
interface Variant {
  label: string;
  recipients: Counts;
}
const all = (total: number): Counts => ({ total, accepted: total, rejected: 0, in_doubt: 0, not_sent: 0 });

/** A first run of the family, with half its requests refused before processing and none retried: exit 7. */
async function partlySent(journals: string, args: string[], cwd: string): Promise<CliResult> {
  await chaos('503=50%');
  const first = await runCli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--max-attempts', '1', '--concurrency', '1', '--json', ...args], { env: env(journals), cwd });
  await chaos('off');
  expect(first.code, first.stderr).toBe(7);
  return first;
}

describe('--once finding its key done after a resume', () => {
  it('says what the whole family delivered, per language, as runs show does: human, --json', async () => {
    const journals = mkdtempSync(join(dir, 'runs-'));
    const send = (...extra: string[]) =>
      runCli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--client-ids-file', 'devices.csv', '--batch-size', '2', '--max-attempts', '1', '--once', 'fam-1', ...extra], { env: env(journals), cwd: dir });
    // The first run delivers part, the resume the rest.
    const first = await partlySent(journals, ['--client-ids-file', 'devices.csv', '--batch-size', '2', '--once', 'fam-1'], dir);
    const resumed = await send('--json', '--report', join(journals, 'resume-report.json'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json(resumed).resumed_from).toBe(json(first).run_id);
    // The resume's report is the key's: every device once, not only those this run sent to.
    const resumeReport = JSON.parse(readFileSync(join(journals, 'resume-report.json'), 'utf8')) as { summary: { recipients: Counts }; accepted: { client_ids: string[] }[] };
    expect(resumeReport.summary.recipients).toEqual(all(DEVICES.length));
    expect(resumeReport.accepted.flatMap((a) => a.client_ids).sort()).toEqual(DEVICES.map((d) => d.id).sort());
    // The resume answers for the key: its message_ids are every run's; what it sent itself is under `attempt`.
    const delivered = [...(json(first).message_ids as string[]), ...(json(resumed).attempt as { message_ids: string[] }).message_ids];
    expect([...(json(resumed).message_ids as string[])].sort()).toEqual([...delivered].sort());

    const again = await send('--json');
    expect(again.code, again.stderr).toBe(0);
    const doc = json(again);
    expect(doc).toMatchObject({ skipped: true, run_state: 'sent', summary: { recipients: all(DEVICES.length) } });
    expect([...(doc.message_ids as string[])].sort()).toEqual([...delivered].sort());
    expect((doc.variants as Variant[]).map((v) => ({ label: v.label, recipients: v.recipients }))).toEqual(ROWS.map((r) => ({ label: r.label, recipients: all(r.total) })));

    // runs show of the run it names gives the family the same totals.
    const shown = json(await runCli(['runs', 'show', doc.run_id as string, '--json'], { env: env(journals), cwd: dir })).run as { family?: Record<string, unknown> };
    expect(shown.family).toMatchObject({ run_ids: [json(first).run_id, json(resumed).run_id], state: 'sent', summary: doc.summary, variants: doc.variants });
    expect([...(shown.family!.message_ids as string[])].sort()).toEqual([...delivered].sort());

    // --report on the re-run writes the family's report, as the action's re-run does: every device once.
    const reported = await send('--json', '--report', join(journals, 'family-report.json'));
    expect(json(reported)).toMatchObject({ skipped: true, report: join(journals, 'family-report.json') });
    const report = JSON.parse(readFileSync(join(journals, 'family-report.json'), 'utf8')) as { summary: { recipients: Counts }; accepted: { client_ids: string[] }[] };
    expect(report.summary.recipients).toEqual(all(DEVICES.length));
    expect(report.accepted.flatMap((a) => a.client_ids).sort()).toEqual(DEVICES.map((d) => d.id).sort());

    const human = await send();
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.trim().split('\n').sort()).toEqual([...delivered].sort());
    expect(human.stderr).toContain(`accepted ${DEVICES.length} of ${DEVICES.length} recipients`);
    expect(human.stderr).toMatch(/by language:\n\s+fr\s+10 recipients: 10 accepted\n\s+pt\s+5 recipients: 5 accepted\n\s+base\s+15 recipients: 15 accepted\n/);
    const text = await runCli(['runs', 'show', doc.run_id as string], { env: env(journals), cwd: dir });
    expect(text.stdout).toMatch(new RegExp(`family +2 runs \\(${String(json(first).run_id)}, ${String(json(resumed).run_id)}\\): sent\\n +batches +\\d+: accepted \\d+, rejected 0, in doubt 0, not sent 0\\n +recipients +30: accepted 30, rejected 0, in doubt 0, not sent 0\\n +by language:\\n +fr +10 recipients: 10 accepted\\n`));
  });

  it('the action re-run says the same: outputs, job summary rows per language, the family report', async () => {
    const workspace = mkdtempSync(join(dir, 'action-'));
    writeFileSync(join(workspace, 'devices.csv'), DEVICES_CSV);
    writeFileSync(join(workspace, 'message.json'), JSON.stringify(MESSAGE));
    const inputs = { file: 'message.json', 'client-ids-file': 'devices.csv', 'app-id': APP, 'app-secret': SECRET, 'base-url': served.url, rate: '0', once: 'fam-action', 'journal-dir': join(workspace, 'journals') };
    // The first run leaves part unsent (the action retries every 503: the CLI's --max-attempts 1 does not).
    const first = await partlySent(join(workspace, 'journals'), ['--client-ids-file', 'devices.csv', '--batch-size', '2', '--once', 'fam-action'], workspace);
    const resumed = await runStep(workspace, inputs);
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.summary).toMatch(/unfinished: this run sent the \d+ recipients it had left: \d+ accepted\. The table counts every run of the key\./);
    // The resume's message-ids are the key's whole audience's: the first run's and its own.
    const delivered = JSON.parse(resumed.outputs['message-ids']!) as string[];
    expect(delivered).toEqual(expect.arrayContaining(json(first).message_ids as string[]));
    expect(delivered.length).toBeGreaterThan((json(first).message_ids as string[]).length);
    expect(resumed.outputs).toMatchObject({ accepted: String(DEVICES.length), 'not-sent': '0', 'in-doubt': '0' });

    const again = await runStep(workspace, { ...inputs, report: 'report.json' });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs).toMatchObject({ skipped: 'true', accepted: String(DEVICES.length), 'not-sent': '0', 'in-doubt': '0', rejected: '0' });
    expect((JSON.parse(again.outputs['message-ids']!) as string[]).sort()).toEqual([...delivered].sort());
    for (const row of ROWS) expect(again.summary).toMatch(new RegExp(`\\| \`${row.label}\` \\| ${row.total}/${row.total} \\| 0 \\|`));
    // The report lists every device once, under the family's last word for it.
    const report = JSON.parse(readFileSync(join(workspace, 'report.json'), 'utf8')) as { summary: { recipients: Counts }; accepted: { client_ids: string[] }[] };
    expect(report.summary.recipients).toEqual(all(DEVICES.length));
    expect(report.accepted.flatMap((a) => a.client_ids).sort()).toEqual(DEVICES.map((d) => d.id).sort());
  });

  it('the MCP tool send_message with once says the same', async () => {
    const journals = mkdtempSync(join(dir, 'runs-mcp-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--allow-send', '--base-url', served.url, '--app-id', APP],
      env: Object.fromEntries(Object.entries(env(journals)).filter((e): e is [string, string] => e[1] !== undefined)),
      cwd: dir,
      stderr: 'pipe',
    });
    (transport.stderr as Readable).resume();
    const client = new Client({ name: 'once-family', version: '1.0.0' });
    await client.connect(transport);
    try {
      // Condition targeting with variants: one request per language, each its own lane in the family.
      const args = { message: MESSAGE, country: ['KE'], language: ['fr', 'pt', 'en'], once: 'fam-mcp' };
      const call = async () => ((await client.callTool({ name: 'send_message', arguments: args })) as { structuredContent: Record<string, unknown> }).structuredContent;
      const first = json(await partlySent(journals, ['--country', 'KE', '--language', 'fr,pt,en', '--once', 'fam-mcp'], dir));
      const resumed = await call();
      expect(resumed.resumed_from, JSON.stringify(resumed)).toBe(first.run_id);
      const again = await call();
      expect(again).toMatchObject({ ok: true, skipped: true, run_state: 'sent', summary: { batches: all(3) } });
      expect((again.variants as { label: string; requests: Counts }[]).map((v) => [v.label, v.requests])).toEqual([
        ['fr', all(1)],
        ['pt', all(1)],
        ['base', all(1)],
      ]);
      const delivered = [...(first.message_ids as string[]), ...(resumed.attempt as { message_ids: string[] }).message_ids].sort();
      expect([...(resumed.message_ids as string[])].sort()).toEqual(delivered);
      expect((again.message_ids as string[]).sort()).toEqual(delivered);
    } finally {
      await client.close();
    }
  });
});

describe('a family of requests by language (condition targeting with variants)', () => {
  it('keeps a request left in doubt by the first run after a resume sent another language: skip, runs show and resend --include-in-doubt all see it', async () => {
    const journals = mkdtempSync(join(dir, 'runs-lanes-'));
    const cli = (args: string[]) => runCli(args, { env: env(journals), cwd: dir });
    const send = (...extra: string[]) => cli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--country', 'KE', '--language', 'fr,pt,en', '--once', 'lanes', '--max-attempts', '1', '--concurrency', '1', '--json', ...extra]);
    // Seeded: fr refused before processing (not sent), pt accepted, the base message answered 500 (in doubt).
    await chaos('500=34%,503=33%', 7);
    const first = await send();
    await chaos('off');
    expect(first.code, first.stderr).toBe(7);
    expect((json(first).batches as { variant: string | null; status: string }[]).map((b) => [b.variant, b.status])).toEqual([
      ['fr', 'not_sent'],
      ['pt', 'accepted'],
      [null, 'in_doubt'],
    ]);
    // The advice counts the requests left of the three, never "the message" as if none had gone out.
    const advised = await cli(['runs', 'show', json(first).run_id as string]);
    expect(advised.stdout).toContain('1 of the 3 requests to ');
    expect(advised.stdout).toMatch(/1 of the 3 requests to .* not sent; to send it:\n/);
    expect(advised.stdout).toMatch(/1 of the 3 requests to .* in doubt \(the service may already have delivered\); to include it, at the risk of sending twice:\n/);
    expect(advised.stdout).not.toContain('the message to ');
    const resumed = await send();
    // The resume's own request was accepted; the key is partly sent (one request in doubt), and says so.
    expect(resumed.code, resumed.stderr).toBe(7);
    expect(json(resumed)).toMatchObject({ state: 'partly_sent', run_state: 'partly_sent', attempt: { state: 'sent' }, in_doubt: 1 });

    // The base message's request is still in doubt: the family is not "sent", and the flag that includes it works.
    const again = await send();
    expect(again.code, again.stderr).toBe(7);
    expect(json(again)).toMatchObject({ skipped: true, in_doubt: 1, summary: { batches: { total: 3, accepted: 2, in_doubt: 1, not_sent: 0 } } });
    expect(json(again).run_state).not.toBe('sent');
    // The rows in the message's order, as a send prints them, though the resume sent fr after the others.
    expect((json(again).variants as { label: string }[]).map((v) => v.label)).toEqual(['fr', 'pt', 'base']);
    const shown = json(await cli(['runs', 'show', json(resumed).run_id as string, '--json'])).run as Record<string, unknown>;
    expect(shown).toMatchObject({ in_doubt: 1, family: { summary: { batches: { total: 3, accepted: 2, in_doubt: 1 } } } });
    const include = String(shown.include_in_doubt_command).split(' ').slice(1);
    const before = ((await (await fetch(`${served.url}/v1/emulator/messages`)).json()) as { messages: unknown[] }).messages.length;
    const resent = await cli([...include, '--json']);
    expect(resent.code, resent.stderr).toBe(0);
    const sent = ((await (await fetch(`${served.url}/v1/emulator/messages`)).json()) as { messages: { body: { condition: { targeting: { language: string[] } } } }[] }).messages;
    expect(sent.length - before).toBe(1);
    expect(sent.at(-1)!.body.condition.targeting.language).toEqual(['en']);
  });
});

describe('runs show of a run whose resend is still sending', () => {
  it('shows the run and says its family is still being sent: exit 0, no resend command, never "nothing left"', async () => {
    const journals = mkdtempSync(join(dir, 'runs-busy-'));
    const first = json(await partlySent(journals, ['--client-ids-file', 'devices.csv', '--batch-size', '2'], dir));
    // A resend of it, alive: this test's own process (a journal of 0.2 names no lock, its pid decides).
    const resendId = '20991231-000000-beef';
    const header = {
      t: 'header', format: 'pushctl-journal', v: 1, run_id: resendId, started_at: '2099-12-31T00:00:00.000Z', version: 'x', pid: process.pid, pid_start: processStartTicks('self'),
      app_id: APP, host: new URL(served.url).host, base_url: served.url, dry_run: false, argv: [], parent: first.run_id, message: MESSAGE, recipients: 2, batches: 1,
    };
    writeFileSync(join(journals, `${resendId}.jsonl`), `${JSON.stringify(header)}\n{"t":"batch","b":0,"ids":["fam-00","fam-01"]}\n`, { mode: 0o600 });
    const cli = (args: string[]) => runCli(args, { env: env(journals), cwd: dir });
    for (const named of [first.run_id as string, resendId]) {
      const shown = await cli(['runs', 'show', named, '--json']);
      expect(shown.code, shown.stdout).toBe(0);
      const run = json(shown).run as Record<string, unknown>;
      expect(run.resend_command).toBeUndefined();
      if (named === first.run_id) expect(run).toMatchObject({ resent_by: [resendId], family: { run_ids: [first.run_id, resendId], state: 'running' } });
      const text = await cli(['runs', 'show', named]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).not.toContain('nothing left to send');
    }
    const text = await cli(['runs', 'show', first.run_id as string]);
    expect(text.stdout).toContain(`run ${resendId}, a resend of it, is still running (pid ${process.pid})`);
  });
});

describe('runs of a family whose resend left the in-doubt recipients alone', () => {
  it("counts them on the resend's line: LEFT is what the family left, as runs show of it says", async () => {
    const journals = mkdtempSync(join(dir, 'runs-left-'));
    const cli = (args: string[]) => runCli(args, { env: env(journals), cwd: dir });
    await chaos('500=34%,503=33%', 7);
    const first = await cli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Left', '--client-ids-file', 'devices.csv', '--batch-size', '2', '--max-attempts', '1', '--concurrency', '1', '--json']);
    await chaos('off');
    const inDoubt = json(first).in_doubt as number;
    expect(inDoubt).toBeGreaterThan(0);
    const resent = await cli(['resend', json(first).run_id as string, '--base-url', served.url, '--app-id', APP, '--json']);
    expect(resent.code, resent.stderr).toBe(0);
    const shown = json(await cli(['runs', 'show', json(resent).run_id as string, '--json'])).run as Record<string, unknown>;
    expect(shown.in_doubt).toBe(inDoubt);
    const listed = json(await cli(['runs', '--json'])).runs as { run_id: string; in_doubt_before?: number }[];
    expect(listed.find((r) => r.run_id === json(resent).run_id)?.in_doubt_before).toBe(inDoubt);
    const table = (await cli(['runs'])).stdout.split('\n').find((line) => line.startsWith(json(resent).run_id as string))!;
    expect(table.split(/\s{2,}/)[3]).toBe(String(inDoubt));
  });
});

describe('retention of a family', () => {
  it('never removes a resend while the run it finished is kept: the run would read as unsent, and its resend would send twice', async () => {
    const journals = mkdtempSync(join(dir, 'runs-kept-'));
    const cli = (args: string[]) => runCli(args, { env: env(journals), cwd: dir });
    const first = json(await partlySent(journals, ['--title', 'Kept', '--client-ids-file', 'devices.csv', '--batch-size', '2'], dir));
    const resent = await cli(['resend', first.run_id as string, '--base-url', served.url, '--app-id', APP, '--json']);
    expect(resent.code, resent.stderr).toBe(0);
    // As if a hundred newer runs had come since: the settled resend is past the newest N, the run is not settled.
    pruneRuns(journals, Date.now(), 0);
    const shown = json(await cli(['runs', 'show', first.run_id as string, '--json'])).run as Record<string, unknown>;
    expect(shown.resend_command).toBeUndefined();
    expect(shown).toMatchObject({ resent_by: [json(resent).run_id], family: { summary: { recipients: all(DEVICES.length) } } });
  });
});

describe('--client-ids-file <journal> of a run that was resent since', () => {
  it("takes what the family left, as resend does: never the IDs its resend delivered, the in-doubt ones only when asked", async () => {
    const journals = mkdtempSync(join(dir, 'runs-input-'));
    const cli = (args: string[]) => runCli(args, { env: env(journals), cwd: dir });
    await chaos('500=34%,503=33%', 7);
    const first = await cli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Input', '--client-ids-file', 'devices.csv', '--batch-size', '2', '--max-attempts', '1', '--concurrency', '1', '--report', join(journals, 'first.json'), '--json']);
    await chaos('off');
    const report = JSON.parse(readFileSync(join(journals, 'first.json'), 'utf8')) as { in_doubt: { client_ids: string[] }[]; not_sent: { client_ids: string[] }[] };
    const inDoubt = report.in_doubt.flatMap((b) => b.client_ids);
    expect(inDoubt.length).toBeGreaterThan(0);
    expect(report.not_sent.length).toBeGreaterThan(0);
    const resent = await cli(['resend', json(first).run_id as string, '--base-url', served.url, '--app-id', APP]);
    expect(resent.code, resent.stderr).toBe(0);

    // The run's journal, and the report it wrote (which names its run): the same answer.
    for (const input of [join(journals, `${json(first).run_id as string}.jsonl`), join(journals, 'first.json')]) {
      // What a dry run with it as its input would address: its report lists every ID.
      const idsFrom = async (...extra: string[]) => {
        const path = join(journals, `dry-${extra.length}.json`);
        const r = await cli(['dry-run', '--base-url', served.url, '--app-id', APP, '--title', 'Again', '--client-ids-file', input, '--no-journal', '--report', path, '--force', '--json', ...extra]);
        if (r.code !== 0) return { code: r.code, stderr: r.stderr };
        return (JSON.parse(readFileSync(path, 'utf8')) as { accepted: { client_ids: string[] }[] }).accepted.flatMap((b) => b.client_ids).sort();
      };
      expect(await idsFrom('--include-in-doubt'), input).toEqual([...inDoubt].sort());
      // Nothing left but those in doubt: no recipient at all, said as such.
      const none = await idsFrom();
      expect(none).toMatchObject({ code: 3 });
      expect((none as { stderr: string }).stderr).toContain('has no client ID left to send');
      expect((none as { stderr: string }).stderr).toContain(`${inDoubt.length} in doubt`);
    }
  });
});

describe('the action re-run that finds its key ran and did not deliver in full', () => {
  it('says why and what to do next, in its own terms, as the CLI does', async () => {
    const workspace = mkdtempSync(join(dir, 'action-refused-'));
    writeFileSync(join(workspace, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, notification: { title: 'Refused' } }));
    writeFileSync(join(workspace, 'ids.txt'), 'r-1\nr-2\n');
    const server = await startScriptedServer(() => ({ status: 200, body: { status: 21005, message: 'message illegal' } }));
    try {
      const inputs = { file: 'message.json', 'client-ids-file': 'ids.txt', 'app-id': APP, 'app-secret': SECRET, 'base-url': server.url, once: 'refused-1', 'journal-dir': join(workspace, 'journals') };
      const first = await runStep(workspace, inputs);
      expect(first.code).toBe(4);
      const again = await runStep(workspace, inputs);
      expect(again.code).toBe(4);
      expect(again.outputs.skipped).toBe('true');
      expect(server.requests).toHaveLength(1);
      // The reason and the next step, with the once input named (the action has no --once flag).
      expect(again.summary).toContain('Next step:');
      expect(again.summary).toContain('new once input');
      expect(again.stdout).toMatch(/::error title=pushctl::pushctl exited 4, [^\n]*run \d{8}-\d{6}-[0-9a-f]{4} with this key ended with exit 4/);
    } finally {
      await server.close();
    }
  });
});
