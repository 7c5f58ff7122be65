// The action drains on cancel as the CLI does (docs/behaviour.md#trust; issue 32 row 8): a cancelled job sends
// SIGINT; the step stops starting requests, waits for those in flight, and still writes the journal's end,
// its outputs and the job summary, ending with the CLI's exit code.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-cli.js';
import { scratchPerTest } from '../helpers/scratch.js';
import { parseOutputFile } from '../helpers/github-output.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const SECRET = 'cancel-S3CRET';
const IDS = 5000;

let work: string;
const started = scratchPerTest('pushctl-action-cancel-', (made) => (work = made));

/** `pushctl serve` on port 0 whose every answer takes a while, recording what it delivered. */
async function serve(record: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--rate', '0', '--app', `app:${SECRET}`, '--record', record, '--chaos', 'latency=400ms'], {
    env: cleanEnv() as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  started.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`pushctl serve exited with ${code}`)));
  });
}

const lineCount = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

describe('the action cancelled mid-run', () => {
  it.each([
    ['SIGINT: drains', ['SIGINT'] as const],
    // GitHub's sequence, the second signal at once: requests in flight are cut and become in doubt.
    ['SIGINT then SIGTERM: stops now', ['SIGINT', 'SIGTERM'] as const],
  ])('%s; the journal ends, the outputs and the summary are written, and the exit code is the CLI’s', async (_what, signals) => {
    const record = join(work, 'delivered.jsonl');
    const url = await serve(record);
    writeFileSync(join(work, 'msg.json'), '{"type":1,"time_to_live":60,"notification":{"title":"t"}}\n');
    writeFileSync(join(work, 'ids.txt'), Array.from({ length: IDS }, (_, i) => `device-${i}`).join('\n') + '\n');
    writeFileSync(join(work, 'out'), '');
    writeFileSync(join(work, 'summary'), '');
    const journals = join(work, 'journals');
    const env = cleanEnv({
      HOME: work,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: work,
      GITHUB_OUTPUT: join(work, 'out'),
      GITHUB_STEP_SUMMARY: join(work, 'summary'),
      INPUT_FILE: 'msg.json',
      'INPUT_CLIENT-IDS-FILE': 'ids.txt',
      'INPUT_APP-ID': 'app',
      'INPUT_APP-SECRET': SECRET,
      'INPUT_BASE-URL': url,
      // One request a second: batches are still waiting to start when the cancel comes.
      INPUT_RATE: '1',
      'INPUT_JOURNAL-DIR': journals,
    });
    const child = spawn(process.execPath, [ACTION], { cwd: work, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let log = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (log += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    // Mid-run: the service has taken the first request.
    while (lineCount(record) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const name of signals) child.kill(name);
    const { code, signal } = await exit;

    expect(signal, log).toBeNull();
    const journalFile = readdirSync(journals).find((name) => name.endsWith('.jsonl'))!;
    const lines = readFileSync(join(journals, journalFile), 'utf8').trim().split('\n');
    const end = JSON.parse(lines.at(-1)!) as { t: string; interrupted: boolean; exit_code: number; summary: { recipients: { accepted: number; in_doubt: number; not_sent: number } } };
    expect(end).toMatchObject({ t: 'end', interrupted: true });
    expect(end.summary.recipients.not_sent).toBeGreaterThan(0);
    if (signals.length === 1) {
      // Drained: the request in flight was answered. Some batches accepted, the rest not sent: exit 7.
      expect(end.summary.recipients.accepted).toBeGreaterThan(0);
      expect(end.summary.recipients.in_doubt).toBe(0);
      expect(code, log).toBe(7);
    } else expect(end.summary.recipients.accepted + end.summary.recipients.in_doubt).toBeGreaterThan(0);
    // The step's status is the CLI's, as the journal recorded it.
    expect(code, log).toBe(end.exit_code);

    const outputs = parseOutputFile(readFileSync(join(work, 'out'), 'utf8'));
    expect(outputs['exit-code']).toBe(String(end.exit_code));
    expect(Number(outputs.accepted)).toBe(end.summary.recipients.accepted);
    expect(Number(outputs['in-doubt'])).toBe(end.summary.recipients.in_doubt);
    expect(Number(outputs['not-sent'])).toBe(end.summary.recipients.not_sent);
    expect(outputs['run-id']).not.toBe('');
    const summary = readFileSync(join(work, 'summary'), 'utf8');
    // Why the step failed is the cancel, not the reason the first batch left was not sent ('interrupted while
    // waiting for the rate limit (and 11 more batches not accepted)').
    expect(summary).toMatch(/: `interrupted \(a signal: the job was cancelled\): \d+ of \d+ batches went out/);
    expect(log).toMatch(/^::error title=pushctl::pushctl exited \d+, [^\n]*: interrupted \(a signal: the job was cancelled\)/m);
    expect(summary).not.toMatch(/interrupted while waiting|interrupted before this batch/);
    // Signals sent together may arrive in either order; the first stops new requests, the second cuts.
    expect(log).toContain(': stopping: no new requests');
    if (signals.length === 2) expect(log).toContain(': stopping now');
    // Masked first, and never printed again.
    expect(log.replace(`::add-mask::${SECRET}\n`, '')).not.toContain(SECRET);
  }, 60_000);
});
