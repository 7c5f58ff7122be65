// The action tells one truth in one shape: run as the runner runs it (test/helpers/action-step.ts) against
// `pushctl serve` on 127.0.0.1, every way the step speaks — its outputs, its job summary, its annotations, its
// last line and the report input's file — says the same counts and the same words, whatever went wrong.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runStep, type StepRun } from '../helpers/action-step.js';
import { printedCommands } from '../helpers/printed-commands.js';
import { ok, startScriptedServer, type Step } from '../helpers/scripted-server.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'truth-S3CR3T-9c2e';
const APP = 'truth-app';

let service: ServedCli;
let work: string;

beforeAll(async () => {
  service = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`]);
});
afterAll(() => service.stop());
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-truth-'));
  writeFileSync(join(work, 'msg.json'), '{"type":1,"time_to_live":60,"notification":{"title":"Release {{version}}"}}\n');
  return () => rmSync(work, { recursive: true, force: true });
});

const inputs = (extra: Record<string, string> = {}) => ({ file: 'msg.json', vars: 'version=2.0', 'app-id': APP, 'app-secret': SECRET, 'base-url': service.url, ...extra });
const everything = (run: StepRun) => `${run.stdout}\n${run.stderr}\n${run.summary}\n${JSON.stringify(run.outputs)}`;
const errorAnnotations = (run: StepRun) => run.stdout.split('\n').filter((line) => line.startsWith('::error'));

describe('an input the action cannot use', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['rate not a number', { rate: 'abc' }, /the rate input "abc" is not a whole number/],
    ['rate out of range', { rate: '100001' }, /the rate input 100001 is out of range/],
    ['dry-run not a boolean', { 'dry-run': 'yes' }, /the dry-run input is "yes", not a boolean/],
    ['strict not a boolean', { strict: '1' }, /the strict input is "1", not a boolean/],
    ['an unknown mode', { mode: 'Send' }, /the mode input is "Send"/],
    ['a vars line without =', { vars: 'version' }, /the vars input: line "version" is not key=value/],
    ['once with mode validate', { mode: 'validate', once: 'r-1' }, /the once input applies to mode send or dry-run, not validate/],
    ['an empty file', { file: '' }, /the file input is empty/],
  ];
  for (const [name, extra, says] of cases) {
    it(`${name}: exit 2 in the outputs, the job summary and the last line, as any other usage error`, async () => {
      const run = await runStep(work, inputs({ 'client-ids-file': 'ids.txt', ...extra }));
      expect(run.code, everything(run)).toBe(2);
      // One annotation naming the input, with the next step.
      expect(errorAnnotations(run)).toHaveLength(1);
      expect(errorAnnotations(run)[0]).toMatch(says);
      // A workflow reads exit-code (and the rest) from the outputs whatever happened: before, they were absent.
      expect(run.outputs).toMatchObject({ 'exit-code': '2', 'message-ids': '[]', accepted: '0', skipped: 'false' });
      expect(run.summary).toMatch(/^## pushctl( [a-z-]+)?: failed \(exit 2\)$/m);
      expect(run.summary).toMatch(says);
      expect(run.stdout).toMatch(/^pushctl( [a-z-]+)?: exit 2 \(usage error\)\.$/m);
      expect(everything(run)).not.toMatch(/\n\s+at |Error:/);
      expect(`${run.stderr}${run.summary}${JSON.stringify(run.outputs)}`).not.toContain(SECRET);
    });
  }

  it("a value's example is given as the input is written in a workflow, not as a flag turned into words", async () => {
    const run = await runStep(work, inputs({ rate: 'abc', 'client-ids-file': 'ids.txt' }));
    expect(errorAnnotations(run)[0]).toContain('(e.g. rate: 1)');
    expect(everything(run)).not.toMatch(/e\.g\. the rate input 1/);
  });
});

describe('a rejection whose fix is a flag the action has no input for', () => {
  it('21006 (too many client IDs per request) names no --batch-size, and says what the action can do', async () => {
    const narrow = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--max-client-ids', '2']);
    try {
      writeFileSync(join(work, 'ids.txt'), 'a\nb\nc\n');
      const run = await runStep(work, inputs({ 'base-url': narrow.url, 'client-ids-file': 'ids.txt' }));
      expect(run.code, everything(run)).toBe(4);
      expect(everything(run)).toMatch(/21006/);
      const { prose } = printedCommands(everything(run));
      expect(prose).not.toMatch(/--batch-size/);
      // The way out is said: the action sends the interface's largest batches; smaller ones take the CLI.
      expect(run.summary).toMatch(/Next step: .*fewer client IDs per request than the 1000 the action sends.*`pushctl resend <run> --batch-size <n>`/);
    } finally {
      await narrow.stop();
    }
  });
});

describe('a once re-run that resumes a run', () => {
  /**
   * The first run's three requests (1,000 client IDs each), told apart by their first client ID: one accepted,
   * one dropped after the service took it (in doubt), one refused as not processed on every attempt (not
   * sent). Once `resumed` is set, every request is accepted.
   */
  function scripted(state: { resumed: boolean }): (request: { body: string }) => Step {
    let n = 0;
    return (request) => {
      n++;
      if (state.resumed) return ok(`resumed-${n}`);
      const first = (JSON.parse(request.body) as { condition: { client_ids: string[] } }).condition.client_ids[0];
      if (first === 'id-0') return ok('first-accepted');
      if (first === 'id-1000') return { action: 'reset' };
      return { status: 200, body: { status: 22001, message: 'called too frequently' } };
    };
  }

  it('says the key as a whole in its outputs, summary and report alike, and what this attempt sent apart', async () => {
    const state = { resumed: false };
    const server = await startScriptedServer(scripted(state));
    try {
      writeFileSync(join(work, 'ids.txt'), Array.from({ length: 3000 }, (_, i) => `id-${i}`).join('\n'));
      const step = inputs({ 'base-url': server.url, 'client-ids-file': 'ids.txt', once: 'release-2.0', 'journal-dir': join(work, 'runs'), rate: '1000', report: 'report.json' });
      const first = await runStep(work, step);
      expect(first.code, everything(first)).toBe(7);
      expect(first.outputs).toMatchObject({ accepted: '1000', 'in-doubt': '1000', 'not-sent': '1000' });
      state.resumed = true;
      const again = await runStep(work, step);
      // The key is partly sent (1000 in doubt): the step fails as the first did, and as the next re-run does.
      expect(again.code, everything(again)).toBe(7);
      expect(again.outputs['exit-code']).toBe('7');
      const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as { summary: { recipients: Record<string, number> } };
      // The report is the key's whole audience (docs/behaviour.md#once); the outputs say the same counts,
      // as the next re-run (which once skips) will.
      expect(report.summary.recipients).toMatchObject({ accepted: 2000, in_doubt: 1000, not_sent: 0 });
      // The state too: the key's, as runs show's family line says it, not 'sent' beside 1000 in doubt.
      expect(again.outputs).toMatchObject({ state: 'partly sent', accepted: '2000', rejected: '0', 'in-doubt': '1000', 'not-sent': '0', skipped: 'false' });
      expect(JSON.parse(again.outputs['message-ids']!)).toHaveLength(2);
      expect(again.summary).toMatch(/\| in doubt \| 1 \| 1000 \|/);
      expect(again.summary).toMatch(/\| accepted \| 2 \| 2000 \|/);
      // What this attempt did, apart from what the earlier one did.
      expect(again.summary).toMatch(/this run sent the 1000 recipients it had left: 1000 accepted/);
      const skipped = await runStep(work, step);
      // The skip's summary says whose counts its table holds, as the resume's does.
      expect(skipped.summary).toMatch(/this re-run sent nothing\. The table counts every run of the key\./);
      expect(skipped.code, everything(skipped)).toBe(7);
      expect(skipped.outputs).toMatchObject({ skipped: 'true', 'exit-code': '7', accepted: again.outputs.accepted, 'in-doubt': again.outputs['in-doubt'], 'message-ids': again.outputs['message-ids'] });
    } finally {
      await server.close();
    }
  });
});

describe('an invalid message', () => {
  it('send and validate say it alike: the findings with their fixes in the summary, the verdict once', async () => {
    writeFileSync(join(work, 'bad.json'), '{"type":1,"time_to_live":60,"notification":{"title":"Hi"}}\n');
    const sent = await runStep(work, inputs({ file: 'bad.json' }));
    const validated = await runStep(work, { mode: 'validate', file: 'bad.json' });
    for (const run of [sent, validated]) {
      expect(run.code, everything(run)).toBe(3);
      // The step's verdict, not 'the message is invalid; nothing was sent: the message is invalid'.
      expect(run.stdout).not.toMatch(/the message is invalid.*the message is invalid/);
      expect(run.summary).not.toMatch(/the message is invalid.*the message is invalid/);
      // The summary's findings carry the fix the annotation at the file gives, in the action's terms.
      expect(run.summary).toMatch(/\| error \| `condition` \| `is required` \| `add "condition", or set the to or client-ids-file input` \|/);
    }
    expect(sent.outputs).toMatchObject({ 'exit-code': '3', accepted: '0' });
  });
});

describe('several targets, one not delivered in full', () => {
  it('the next step is said once, in the action\'s terms, with the command only where a command is printed', async () => {
    const dropping = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--chaos', 'reset=100%']);
    try {
      writeFileSync(join(work, 'ids.txt'), 'a\nb\n');
      writeFileSync(join(work, '.pushctlrc.json'), JSON.stringify({ profiles: { eu: { appId: APP, baseUrl: service.url }, us: { appId: APP, baseUrl: dropping.url } } }));
      const run = await runStep(work, { file: 'msg.json', vars: 'version=2.0', 'client-ids-file': 'ids.txt', profiles: 'eu,us', 'journal-dir': join(work, 'runs') }, { PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: SECRET });
      expect(run.code, everything(run)).toBe(7);
      expect(run.outputs).toMatchObject({ accepted: '2', 'in-doubt': '2' });
      // Before: 'Next step: nothing is certainly unsent; 2 recipients in doubt, which may already have it:
      // pushctl resend <run> --include-in-doubt', a command in prose, beside the summary's own block for it.
      const { prose, commands } = printedCommands(`${run.stdout}\n${run.summary}`);
      expect(prose).not.toMatch(/pushctl (resend|runs)\b/);
      expect(commands.some((c) => /^pushctl resend \S+ .*--include-in-doubt$/.test(c))).toBe(true);
    } finally {
      await dropping.stop();
    }
  });
});

describe('a journal-dir that cannot be made', () => {
  // Node's recursive mkdir retries for ever when a level under /proc answers ENOENT: the step spun a core, deaf
  // to the job's cancel, until the job's timeout. Linux only (/proc).
  // Spinning in a synchronous mkdir, a step hears no SIGTERM: one the test gave up on is killed.
  const spinning: ChildProcess[] = [];
  afterEach(() => {
    for (const child of spinning.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  it.runIf(process.platform === 'linux')('under /proc: refused at once naming the input (exit 2), nothing sent', async () => {
    writeFileSync(join(work, 'ids.txt'), 'a\n');
    const run = await runStep(work, inputs({ 'client-ids-file': 'ids.txt', 'journal-dir': '/proc/pushctl-no-such-dir/runs' }), {}, (c) => spinning.push(c));
    expect(run.code, everything(run)).toBe(2);
    expect(errorAnnotations(run).join('\n')).toMatch(/\/proc\/pushctl-no-such-dir\/runs.*\(ENOENT\).*set the journal-dir input to a writable directory/);
    expect(run.outputs).toMatchObject({ 'exit-code': '2', accepted: '0' });
  }, 20_000);
});
