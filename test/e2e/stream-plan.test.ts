// A plan that streams (docs/behaviour.md#rate, issue 20): a long client-ID list is sent while it is read, the journal
// recording each batch before its request. The built binary reads stdin that the test holds open, so "the
// first request left before the input ended" is observed, not timed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/journal/reader.js';
import { BIN, cleanEnv, runCli, type CliResult } from '../helpers/run-cli.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const SECRET = 'stream-plan-S3CR3T-9z8y';
let work: string;
let journals: string;
let server: ScriptedServer;

beforeEach(async () => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-stream-'));
  journals = join(work, 'runs');
  server = await startScriptedServer((r) => ok(`m-${r.body.length}-${Math.random().toString(36).slice(2, 8)}`));
});
afterEach(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = () => cleanEnv({ HOME: work, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journals });
const cli = (args: string[], input?: string): Promise<CliResult> => runCli(args, { env: env(), cwd: work, ...(input !== undefined ? { input } : {}) });
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `stream-${String(from + i).padStart(7, '0')}`);
const lines = (list: readonly string[]) => `${list.join('\n')}\n`;
/** Every ID the server was sent, sorted: batches go out in parallel, so they arrive in any order. */
const sentIds = () => server.requests.flatMap((r) => (JSON.parse(r.body) as { condition: { client_ids: string[] } }).condition.client_ids).sort();
const sorted = (list: readonly string[]) => [...list].sort();
const journalFile = () => {
  const files = readdirSync(journals).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return join(journals, files[0]!);
};

/** `pushctl send --client-ids-file -` with its stdin held open by the test. */
function sendFromStdin(message: string[] = ['--title', 'Streamed']): { child: ChildProcess; exit: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, 'send', '--base-url', server.url, '--app-id', 'app', ...message, '--client-ids-file', '-', '--rate', '0', '--json'], {
    cwd: work,
    env: env() as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // pushctl stops reading its input at a bad line: what the test still writes then has nowhere to go.
  child.stdin!.on('error', () => {});
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exit };
}

/** Resolves once the server has had `n` requests; rejects if the child ends first. */
async function requestsReach(n: number, exit: Promise<CliResult>): Promise<void> {
  let ended: CliResult | undefined;
  void exit.then((r) => (ended = r));
  while (server.requests.length < n) {
    if (ended) throw new Error(`send ended (${ended.code}) before ${n} requests: ${ended.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts a send from stdin, writes `first` and waits for the first request, with stdin still open. */
async function sendingWhileOpen(first: readonly string[]): Promise<{ child: ChildProcess; exit: Promise<CliResult> }> {
  const sending = sendFromStdin();
  sending.child.stdin!.write(lines(first));
  await requestsReach(1, sending.exit);
  return sending;
}

describe('a long client-ID list is sent while it is read', () => {
  it('the first batches leave while the input is still open; every ID goes out once and the journal closes its plan', async () => {
    const first = ids(60_000);
    const rest = ids(40_500, 60_000);
    // The input is still open: nothing has told pushctl how many IDs there are.
    const { child, exit } = await sendingWhileOpen(first);
    expect(child.stdin!.writableEnded).toBe(false);
    child.stdin!.end(lines([...rest, first[0]!]));
    const result = await exit;
    expect(result.code, result.stderr).toBe(0);
    expect(sentIds()).toEqual(sorted([...first, ...rest]));
    const doc = JSON.parse(result.stdout) as { summary: { recipients: { accepted: number } }; notes: { message: string }[] };
    expect(doc.summary.recipients.accepted).toBe(100_500);
    // Repeats are still counted, at the end.
    expect(doc.notes.map((n) => n.message)).toContain('removed 1 duplicate client ID');

    const journal = readFileSync(journalFile(), 'utf8');
    const records = journal.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ t: 'header', recipients: null, batches: null, input: '-' });
    expect(records.find((r) => r.t === 'plan')).toEqual({ t: 'plan', recipients: 100_500, batches: 101 });
    // Each batch's record comes before its first start record.
    const seen = new Set<number>();
    for (const r of records) {
      if (r.t === 'batch') seen.add(r.b as number);
      if (r.t === 'start') expect(seen.has(r.b as number), `batch ${String(r.b)} started before its record`).toBe(true);
    }
    const run = readJournal(journal);
    expect(run.incomplete).toBeUndefined();
    expect(run.results.flatMap((r) => r.clientIds)).toEqual([...first, ...rest]);
  }, 60_000);

  it('Ctrl-C while the list is read: nothing more starts, the rest is still read and listed as not sent, and the bare resend sends exactly it', async () => {
    const first = ids(60_000);
    const rest = ids(30_000, 60_000);
    const { child, exit } = await sendingWhileOpen(first);
    child.kill('SIGINT');
    // The run waits for the rest of its input, so that its journal lists every recipient.
    child.stdin!.end(lines(rest));
    const result = await exit;
    expect([7, 130]).toContain(result.code);
    const doc = JSON.parse(result.stdout) as { run_id: string; resend_command: string; summary: { recipients: { total: number; not_sent: number } } };
    expect(doc.summary.recipients.total).toBe(90_000);
    const sentBefore = sentIds();
    expect(doc.summary.recipients.not_sent).toBe(90_000 - sentBefore.length);
    expect(doc.resend_command).toBe(`pushctl resend ${doc.run_id} --base-url ${server.url} --app-id app`);
    const run = readJournal(readFileSync(journalFile(), 'utf8'));
    expect(run.incomplete).toBeUndefined();
    expect(run.results.flatMap((r) => r.clientIds)).toEqual([...first, ...rest]);

    const resend = await cli(['resend', doc.run_id, '--base-url', server.url, '--rate', '0']);
    expect(resend.code, resend.stderr).toBe(0);
    expect(sentIds()).toEqual(sorted([...first, ...rest]));
  }, 60_000);

  it('a short list is read whole before anything is sent: a bad line in it sends nothing', async () => {
    writeFileSync(join(work, 'ids.txt'), lines([...ids(3000), 'bad\u0001id', ...ids(10, 3000)]));
    const result = await cli(['send', '--base-url', server.url, '--app-id', 'app', '--title', 'x', '--client-ids-file', 'ids.txt', '--rate', '0']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('line 3001');
    expect(server.requests).toHaveLength(0);
  });

  it('a bad line after batches went out: they stand, nothing after it is sent, exit 3, and the resend given the fixed input sends the rest once', async () => {
    // 60,500 good lines: 60 full batches, and a short rest that waits for the resend.
    const first = ids(60_500);
    const rest = ids(20_000, 60_500);
    const { child, exit } = await sendingWhileOpen(first);
    child.stdin!.end(lines(['bad\u0001id', ...rest]));
    const result = await exit;
    expect(result.code).toBe(3);
    const doc = JSON.parse(result.stdout) as { run_id: string; error: { message: string; hint: string } };
    expect(doc.error.message).toContain('line 60501');
    expect(doc.error.message).toContain('nothing after that point was sent');
    expect(doc.error.hint).toContain(`pushctl resend ${doc.run_id} --client-ids-file - --base-url ${server.url} --app-id app`);
    expect(sentIds()).toEqual(sorted(first.slice(0, 60_000)));
    expect(result.stderr).not.toMatch(/at .*\.cjs:\d+/);

    // The run is incomplete; it is not resent without its input, nor with another one.
    const shown = await cli(['runs', 'show', doc.run_id, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ run: { state: 'incomplete', resend_command: `pushctl resend ${doc.run_id} --client-ids-file - --base-url ${server.url} --app-id app` } });
    expect((JSON.parse(shown.stdout) as { run: { incomplete: string } }).run.incomplete).toContain('read no further (the client ID "bad\\u0001id"');
    const listed = JSON.parse((await cli(['runs', '--json'])).stdout) as { runs: { run_id: string; state: string }[] };
    expect(listed.runs.find((r) => r.run_id === doc.run_id)?.state).toBe('incomplete');
    const bare = await cli(['resend', doc.run_id]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('stopped before it read all of its client-ID input');
    expect(bare.stderr).toContain('--client-ids-file');
    const other = await cli(['resend', doc.run_id, '--client-ids-file', '-'], lines(ids(80_000, 1)));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`is not run ${doc.run_id}'s input: its recipient 1 was "stream-0000000"`);
    expect(server.requests).toHaveLength(60);

    // The input, fixed, given again: the rest goes out, never a recipient the run planned.
    const fixed = lines([...first, 'fixed-id', ...rest]);
    const preview = await cli(['resend', doc.run_id, '--client-ids-file', '-', '--dry-run', '--base-url', server.url, '--json'], fixed);
    expect(JSON.parse(preview.stdout)).toMatchObject({ would_send: true, recipients: 20_501, not_sent: 20_501 });
    const resend = await cli(['resend', doc.run_id, '--client-ids-file', '-', '--base-url', server.url, '--rate', '0'], fixed);
    expect(resend.code, resend.stderr).toBe(0);
    expect(sentIds()).toEqual(sorted([...first, 'fixed-id', ...rest]));
    // Again: the run and its resend are one family; nothing is left.
    const again = await cli(['resend', doc.run_id, '--client-ids-file', '-', '--json'], fixed);
    expect(JSON.parse(again.stdout)).toMatchObject({ would_send: false, not_sent: 0 });
    // Its input given again and sent in full, the family is whole: runs show and a bare resend say so, never
    // "give that input again".
    const after = JSON.parse((await cli(['runs', 'show', doc.run_id, '--json'])).stdout) as { run: Record<string, unknown> };
    expect(after.run.resend_command).toBeUndefined();
    expect(after.run).toMatchObject({ family: { state: 'sent', summary: { recipients: { total: 80_501, accepted: 80_501 } } } });
    expect((await cli(['runs', 'show', doc.run_id])).stdout).toContain('nothing left to send');
    const bareAfter = await cli(['resend', doc.run_id, '--base-url', server.url]);
    expect(bareAfter.code, bareAfter.stderr).toBe(0);
    expect(bareAfter.stderr).toContain('nothing left to send');
    // A finished run does not take an input it does not need.
    const child2 = (JSON.parse((await cli(['runs', '--json'])).stdout) as { runs: { run_id: string; parent?: string }[] }).runs.find((r) => r.parent === doc.run_id)!;
    const needless = await cli(['resend', child2.run_id, '--client-ids-file', '-'], fixed);
    expect(needless.code).toBe(2);
    expect(needless.stderr).toContain('lists every recipient');
  }, 90_000);
});

describe('a CSV with a language column, sent in its variants, stopped half-read', () => {
  it('the resend given the fixed CSV sends each remaining ID once, in its own language; another CSV is refused', async () => {
    writeFileSync(join(work, 'message.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 2 }, notification: { title: 'Hello' }, variants: { fr: { notification: { title: 'Bonjour' } } } }));
    // Three lanes' worth of languages: French (the fr variant), English and none (the base message).
    const languageOf = (i: number) => ['fr-FR', 'en', ''][i % 3]!;
    const titleFor = (i: number) => (languageOf(i) === 'fr-FR' ? 'Bonjour' : 'Hello');
    const all = ids(90_000);
    const rows = (from: number, to: number) => all.slice(from, to).map((id, k) => `${id},${languageOf(from + k)}\n`).join('');
    const sending = sendFromStdin(['-f', 'message.json']);
    sending.child.stdin!.write(`client_id,language\n${rows(0, 61_000)}`);
    await requestsReach(1, sending.exit);
    sending.child.stdin!.end(`bad\u0001id,fr\n${rows(61_000, 90_000)}`);
    const result = await sending.exit;
    expect(result.code, result.stderr).toBe(3);
    const doc = JSON.parse(result.stdout) as { run_id: string; error: { hint: string } };
    expect(doc.error.hint).toContain(`pushctl resend ${doc.run_id} --client-ids-file -`);
    const sentBefore = server.requests.length;
    expect(sentBefore).toBeGreaterThan(0);

    const other = await cli(['resend', doc.run_id, '--client-ids-file', '-', '--base-url', server.url], `client_id,language\n${rows(1, 90_000)}`);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`is not run ${doc.run_id}'s input`);
    expect(server.requests).toHaveLength(sentBefore);

    const fixed = `client_id,language\n${rows(0, 61_000)}fixed-id,fr\n${rows(61_000, 90_000)}`;
    const resend = await cli(['resend', doc.run_id, '--client-ids-file', '-', '--base-url', server.url, '--rate', '0'], fixed);
    expect(resend.code, resend.stderr).toBe(0);
    const titles = new Map<string, string[]>();
    for (const r of server.requests) {
      const body = JSON.parse(r.body) as { condition: { client_ids: string[] }; notification: { title: string } };
      for (const id of body.condition.client_ids) titles.set(id, [...(titles.get(id) ?? []), body.notification.title]);
    }
    const wrong = all.filter((id, i) => titles.get(id)?.join() !== titleFor(i));
    expect(wrong.slice(0, 5), `${wrong.length} IDs not sent once in their language`).toEqual([]);
    expect(titles.get('fixed-id')).toEqual(['Bonjour']);
    expect(titles.size).toBe(90_001);
  }, 60_000);
});
