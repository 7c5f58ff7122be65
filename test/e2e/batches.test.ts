import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startScriptedServer, type RecordedRequest, type Step } from '../helpers/scripted-server.js';
import { spawn, spawnSync } from 'node:child_process';
import { BIN, cleanEnv, runCli, type RunOptions } from '../helpers/run-cli.js';
import { createEmulator } from '../../src/emulator/index.js';

const SECRET = 'batch-secret-7c1e';
let dir: string;
const ids = Array.from({ length: 2500 }, (_, i) => `cid-${String(i).padStart(5, '0')}`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-batches-'));
  writeFileSync(join(dir, 'ids.txt'), `${ids.join('\n')}\n${ids.slice(0, 10).join('\n')}\n\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.cfg'), PUSHCTL_APP_SECRET: SECRET, PUSHCTL_APP_ID: 'app' });
const send = (url: string, extra: string[], onSpawn?: RunOptions['onSpawn']) =>
  runCli(['send', '--base-url', url, '--client-ids-file', 'ids.txt', '--title', 'Release', ...extra], { env: env(), cwd: dir, ...(onSpawn ? { onSpawn } : {}) });
const batchOf = (r: RecordedRequest): string[] => JSON.parse(r.body).condition.client_ids;
const readReport = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const allIdsIn = (report: Record<string, { client_ids: string[] }[]>) =>
  ['accepted', 'rejected', 'in_doubt', 'not_sent'].flatMap((k) => report[k]!.flatMap((e) => e.client_ids));

describe('batched sends (built binary)', () => {
  it('sends 2,500 IDs (plus repeats) in 3 batches to the emulator', async () => {
    const emulator = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }] });
    try {
      const r = await send(emulator.url, ['--json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.summary.batches).toMatchObject({ total: 3, accepted: 3 });
      expect(doc.summary.recipients.total).toBe(2500);
      expect(doc.notes.some((n: { message: string }) => n.message.includes('removed 10 duplicate'))).toBe(true);
      // Batches go out concurrently, so they may arrive in any order: every ID exactly once is the claim.
      expect(emulator.messages('app').flatMap((m) => m.body.condition.client_ids).sort()).toEqual([...ids].sort());
    } finally {
      await emulator.close();
    }
  });

  it('--quiet: the message_ids alone on stdout; a partial failure says on stderr what happened and the one next step, no table', async () => {
    // Batch 2 (of 3) is answered 503 (not processed) on its one attempt: not sent, exit 7.
    const server = await startScriptedServer((r) => (batchOf(r)[0] === ids[1000] ? { status: 503, body: '' } : ok(`m-${r.index}`)));
    try {
      const r = await send(server.url, ['--quiet', '--concurrency', '1', '--max-attempts', '1']);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toMatch(/^(m-\d+\n){2}$/);
      // docs/behaviour.md#output: the outcome in the headline's one line, then the resend advice; no rows, no report line.
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^partly sent: 2 of 3 batches accepted \(1500 of 2500 recipients\); 1 not sent$/);
      expect(r.stderr).toMatch(/^ {2}pushctl resend \S+/m);
      expect(r.stderr).not.toMatch(/^ {2}accepted +\d/m);
      expect(r.stderr).not.toContain('a report of every recipient');
    } finally {
      await server.close();
    }
  });

  it('a mid-run rejection: exit 7, a report that adds up to the input, and a resend command that finishes the job', async () => {
    // Batch 2 (of 3) is rejected; batch 3 gets a 500 (unknown, sent once).
    const script = (r: RecordedRequest): Step => {
      const first = batchOf(r)[0];
      if (first === ids[1000]) return { status: 200, body: { status: 21005, message: 'bad batch' } };
      if (first === ids[2000]) return { status: 500, body: 'oops' };
      return ok(`m-${r.index}`);
    };
    const server = await startScriptedServer(script);
    try {
      const r = await send(server.url, ['--report', 'run1.json', '--concurrency', '1']);
      expect(r.code).toBe(7);
      expect(server.requests).toHaveLength(3); // the 500 was not retried
      expect(r.stderr).toMatch(/accepted\s+1 batch\s+1000 recipients/);
      expect(r.stderr).toContain('rejected: 21005 message illegal');
      const report = readReport('run1.json');
      expect(allIdsIn(report).sort()).toEqual([...ids].sort());
      expect(report.rejected[0]).toMatchObject({ code: 21005, message: 'bad batch' });
      expect(report.in_doubt[0].client_ids).toEqual(ids.slice(2000));

      // Nothing is certainly unsent; the unknown batch is stated apart, with the flag that includes it
      // (rejected ones need a fix first). That printed command resends exactly the unknown IDs.
      expect(r.stderr).not.toMatch(/not sent; to send to exactly those/);
      expect(r.stderr).toContain('500 recipients in doubt');
      const line = r.stderr.split('\n').find((l) => l.trim().startsWith('pushctl resend'))!.trim();
      // The run's settings flags come along (a resend sends only where the settings in force point).
      expect(line).toMatch(/^pushctl resend \S+ --base-url \S+ --include-in-doubt$/);
      const args = line.split(' ').slice(1).filter((arg, i, all) => arg !== '--base-url' && all[i - 1] !== '--base-url');
      const retry = await startScriptedServer([ok('m-retry')]);
      try {
        // The journal names the first server; --base-url sends the resend to the second.
        const again = await runCli([...args, '--base-url', retry.url, '--report', 'run1.retry.json'], { env: env(), cwd: dir });
        expect(again.code, again.stderr).toBe(0);
        expect(retry.requests.flatMap(batchOf)).toEqual(ids.slice(2000));
        expect(readReport('run1.retry.json').accepted[0].client_ids).toEqual(ids.slice(2000));
      } finally {
        await retry.close();
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a --report path it cannot write before sending anything (exit 2)', async () => {
    const server = await startScriptedServer([ok()]);
    try {
      const r = await send(server.url, ['--report', 'no/such/dir/report.json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--report no/such/dir/report.json cannot be written');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('retries 22001 answers to success', async () => {
    let limited = 0;
    const server = await startScriptedServer((r) => (r.index < 2 ? (limited++, { status: 200, body: { status: 22001, message: 'slow down' }, headers: { 'Retry-After': '0' } }) : ok(`m-${r.index}`)));
    try {
      const r = await send(server.url, ['--json', '--concurrency', '1']);
      expect(r.code).toBe(0);
      expect(limited).toBe(2);
      // The two refused attempts were retried (a batch waiting out its backoff holds no slot, so the retries
      // need not belong to the first batch).
      const batches = JSON.parse(r.stdout).batches as { attempts: number }[];
      expect(batches.reduce((n, b) => n + b.attempts, 0)).toBe(batches.length + 2);
    } finally {
      await server.close();
    }
  });

  it('SIGINT mid-run: in-flight batches finish, the rest are not_sent in the report, and the summary prints', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    const server = await startScriptedServer((r) => {
      // Interrupt as soon as the first batch arrives; answer it a little later so it is in flight.
      if (r.index === 0) child?.kill('SIGINT');
      return { ...ok(`m-${r.index}`), delayMs: 200 };
    });
    try {
      const r = await send(server.url, ['--report', 'interrupted.json', '--concurrency', '1', '--batch-size', '500'], (c) => (child = c));
      expect(r.code).toBe(7);
      expect(r.stderr).toContain('stopping');
      const report = readReport('interrupted.json');
      expect(report.accepted).toHaveLength(1);
      expect(report.accepted[0].client_ids).toEqual(ids.slice(0, 500));
      expect(report.not_sent.flatMap((e: { client_ids: string[] }) => e.client_ids)).toEqual(ids.slice(500));
      expect(server.requests).toHaveLength(1);
      // The one resend command names the run; the journal holds its message and recipients.
      expect(r.stderr).toMatch(/2000 recipients not sent; to send to exactly those:\n {2}pushctl resend \d{8}-\d{6}-[0-9a-f]{4} --base-url http:\/\/127\.0\.0\.1:\d+\n/);
    } finally {
      await server.close();
    }
  });

  it('--rate keeps a run within the service\'s limit: no request is refused as too frequent', async () => {
    // The emulator enforces the service's rule at 20 requests in any one second; --rate 10 leaves room for a
    // loaded machine bunching requests on their way. Unlimited, 25 batches would be refused beyond the
    // 20th. The pacing itself is checked on a virtual clock in test/unit/client/rate-limiter.test.ts;
    // here, that --rate reaches it.
    const emulator = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }], rate: 20, maxClientIds: 100 });
    try {
      const r = await send(emulator.url, ['--rate', '10', '--batch-size', '100', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.batches).toHaveLength(25);
      expect(doc.batches.filter((b: { attempts: number }) => b.attempts !== 1)).toEqual([]);
      expect(emulator.stats('app').accepted).toBe(25);
    } finally {
      await emulator.close();
    }
  });
});

describe('progress on a terminal', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)('shows batches done/total on a TTY and nothing of it when piped', async () => {
    const emulator = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }], rate: 0 });
    try {
      const args = ['send', '--base-url', emulator.url, '--client-ids-file', 'ids.txt', '--title', 'Release', '--batch-size', '500'];
      // `script` runs the CLI on a pseudo-terminal; stty gives it a width, as a real terminal has.
      const line = `stty cols 120 rows 40; ${[process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ')}`;
      const tty = await new Promise<string>((resolve) => {
        const child = spawn('script', ['-qec', line, '/dev/null'], { cwd: dir, env: env() as NodeJS.ProcessEnv });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      });
      expect(tty).toMatch(/batches \d\/5 · recipients \d+\/2500/);
      const piped = await runCli(args, { env: env(), cwd: dir });
      expect(piped.code).toBe(0);
      expect(piped.stderr).not.toMatch(/batches \d\/5/);
      expect(piped.stderr).not.toContain('\u001b[');
      // NO_COLOR (cleanEnv sets it) holds for the spinner too; a terminal reporting 0 columns (no stty) still
      // shows progress, and the summary says how long it took.
      const zeroColumns = await new Promise<string>((resolve) => {
        const child = spawn('script', ['-qec', [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: dir, env: env() as NodeJS.ProcessEnv });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      });
      expect(zeroColumns).toMatch(/batches \d\/5 · recipients \d+\/2500 · \d+ req\/s/);
      // Select Graphic Rendition (colour) sequences: ESC [ digits m.
      expect(zeroColumns).not.toMatch(new RegExp(String.raw`${String.fromCharCode(27)}\[[\d;]*m`));
      expect(zeroColumns).toMatch(/sent: 5 batches, 2500 recipients in \d+\.\d s/);
    } finally {
      await emulator.close();
    }
  });
});

describe('batched summaries state the outcome', () => {
  it('every batch rejected: the headline says so and the code hint follows (21006 → --batch-size)', async () => {
    const emulator = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }], rate: 0, maxClientIds: 400 });
    try {
      const r = await runCli(['send', '--base-url', emulator.url, '--client-ids-file', 'ids.txt', '--title', 'Release', '--batch-size', '500'], { env: env(), cwd: dir });
      expect(r.code).toBe(4);
      // Refused for their size, not their message: not sent, for a resend with a lower --batch-size.
      expect(r.stderr).toMatch(/^rejected: 5 not sent of 5 batches \(2500 recipients\) in \d+\.\d s$/m);
      expect(r.stderr).not.toMatch(/^sent: /m);
      expect(r.stderr).toMatch(/^hint: 21006: .*--batch-size/m);
    } finally {
      await emulator.close();
    }
  });

  it('a failed send to every device offers no "report of every recipient": it has none to list', async () => {
    const emulator = await createEmulator({ port: 0, apps: [{ id: 'app', secret: SECRET }], rate: 0 });
    try {
      const all = await runCli(['send', '--base-url', emulator.url, '--app-id', 'no-such-app', '--all', '--title', 'Release'], { env: env(), cwd: dir });
      expect(all.code, all.stderr).toBe(4);
      expect(all.stderr).toMatch(/^✗ not sent: 21002 /m);
      expect(all.stderr).not.toContain('a report of every recipient');
      // A list of client IDs has recipients to report, and is still offered the command.
      const listed = await send(emulator.url, ['--app-id', 'no-such-app']);
      expect(listed.code, listed.stderr).toBe(4);
      expect(listed.stderr).toMatch(/^a report of every recipient: pushctl runs show \S+ --report report\.json$/m);
    } finally {
      await emulator.close();
    }
  });

  it('after a stop, the headline counts what went out, not what was planned', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    const server = await startScriptedServer((r) => {
      if (r.index === 0) child?.kill('SIGINT');
      return { ...ok(`m-${r.index}`), delayMs: 200 };
    });
    try {
      const r = await send(server.url, ['--concurrency', '1', '--batch-size', '500'], (c) => (child = c));
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(/^interrupted: 1 of 5 batches went out \(500 of 2500 recipients\); 1 accepted, 4 not sent/m);
    } finally {
      await server.close();
    }
  });

  it('after a second signal, the headline counts the request it cut as in doubt: every batch under a word', async () => {
    let child: import('node:child_process').ChildProcess | undefined;
    // The first batch is accepted; the second never answered, until two signals cut it.
    const server = await startScriptedServer((r) => {
      if (r.index === 1) {
        child?.kill('SIGINT');
        child?.kill('SIGTERM');
        return { action: 'hang' };
      }
      return ok(`m-${r.index}`);
    });
    try {
      const r = await send(server.url, ['--concurrency', '1', '--batch-size', '500'], (c) => (child = c));
      expect(r.code, r.stderr).toBe(7);
      expect(r.stderr).toMatch(/^ {2}in doubt +1 batch +500 recipients$/m);
      expect(r.stderr).toMatch(/^interrupted: 2 of 5 batches went out \(1000 of 2500 recipients\); 1 accepted, 1 in doubt, 3 not sent/m);
    } finally {
      await server.close();
    }
  });
});
