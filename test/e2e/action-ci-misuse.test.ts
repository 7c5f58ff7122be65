// The GitHub Action as a CI author uses and misuses it: the committed bundle run as the runner runs it
// (test/helpers/action-step.ts) against `pushctl serve`, a real process on 127.0.0.1. What the step says must
// agree with what the emulator received and with the CLI's --json for the same send.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runStep } from '../helpers/action-step.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';

const SECRET = 'ci-canary-S3CR3T-41d7';
const APP = 'ci-app';

let service: ServedCli;
/** Every push answered by a dropped connection after the emulator took it: each one in doubt. */
let dropping: ServedCli;
let work: string;

beforeAll(async () => {
  service = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`]);
  dropping = await serveCli(['--rate', '0', '--app', `${APP}:${SECRET}`, '--chaos', 'reset=100%']);
});
afterAll(async () => {
  await service.stop();
  await dropping.stop();
});
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-ci-'));
  writeFileSync(join(work, 'msg.json'), '{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"Release {{version}}"}}\n');
  return () => rmSync(work, { recursive: true, force: true });
});

const inputs = (extra: Record<string, string> = {}) => ({ file: 'msg.json', vars: 'version=2.0', 'app-id': APP, 'app-secret': SECRET, 'base-url': service.url, 'dry-run': 'false', strict: 'false', ...extra });

describe("the action's last line", () => {
  it('says what exit 0 of a send, a dry run and a re-run that once skipped means, never "unknown exit status"', async () => {
    const sent = await runStep(work, inputs({ once: 'release-2.0', 'journal-dir': join(work, 'runs') }));
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    expect(sent.stdout).toContain('pushctl send: exit 0 (success: every batch accepted).');
    const again = await runStep(work, inputs({ once: 'release-2.0', 'journal-dir': join(work, 'runs') }));
    expect(again.outputs.skipped).toBe('true');
    expect(again.stdout).toContain('pushctl send: exit 0 (success: every batch accepted), skipped: once found the run already done.');
    const checked = await runStep(work, inputs({ mode: 'dry-run' }));
    expect(checked.stdout).toContain('pushctl dry-run: exit 0 (success: every batch accepted).');
    for (const run of [sent, again, checked]) expect(run.stdout).not.toContain('unknown exit status');
  });
});

describe('the action in its own terms', () => {
  it('a profile with no config file in the workspace: the fix is a config file in the repository, not a command mangled into input names', async () => {
    const step = await runStep(work, { ...inputs(), 'app-id': '', 'app-secret': '', 'base-url': '', profiles: 'eu,us' }, { PUSHCTL_APP_SECRET_EU: SECRET, PUSHCTL_APP_SECRET_US: SECRET });
    expect(step.code).toBe(6);
    const said = `${step.stdout}${step.stderr}${step.summary}`;
    expect(said).toContain('profile "eu" (from the profiles input) was selected, but no config file was found');
    expect(said).toContain('add a config file that defines profile eu to the repository (.pushctlrc.json or .pushctlrc.yaml)');
    expect(said).not.toMatch(/pushctl init|--config|the profiles input eu/);
    // A config file with no profiles at all.
    writeFileSync(join(work, '.pushctlrc.json'), '{}\n');
    const none = await runStep(work, { ...inputs(), 'app-id': '', 'app-secret': '', 'base-url': '', profiles: 'eu' }, { PUSHCTL_APP_SECRET_EU: SECRET });
    expect(none.code).toBe(6);
    expect(none.stdout).toContain('the file has no profiles; define profile eu in it');
    expect(`${none.stdout}${none.summary}`).not.toMatch(/pushctl init|the profiles input eu/);
  });

  it('a journal-dir that is not a directory: the fix names the journal-dir input and no flag the action has no input for', async () => {
    writeFileSync(join(work, 'not-a-dir'), 'a file\n');
    const step = await runStep(work, inputs({ 'journal-dir': join(work, 'not-a-dir') }));
    expect(step.code).toBe(2);
    const said = `${step.stdout}${step.stderr}${step.summary}`;
    expect(said).toContain('set the journal-dir input to a writable directory');
    expect(said).not.toMatch(/--no-journal|--journal\b|PUSHCTL_JOURNAL_DIR/);
  });
});

describe('a send whose every request is in doubt', () => {
  it('is not said to have sent nothing: the emulator took every request, and the step says none was accepted', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `device-${i}`);
    writeFileSync(join(work, 'ids.txt'), `${ids.join('\n')}\n`);
    const step = await runStep(work, inputs({ 'base-url': dropping.url, 'client-ids-file': 'ids.txt' }));
    expect(step.code).toBe(5);
    expect(step.outputs).toMatchObject({ state: 'in doubt', 'in-doubt': '1001', accepted: '0', 'not-sent': '0' });
    const runId = step.outputs['run-id']!;
    const inbox = (await (await fetch(`${dropping.url}/v1/emulator/messages`)).json()) as { messages: { body: { condition: { client_ids: string[] } } }[] };
    expect(inbox.messages.flatMap((m) => m.body.condition.client_ids).filter((id) => ids.includes(id))).toHaveLength(1001);
    // One outcome, one word: the headline, the state output and the summary's heading all say "in doubt".
    expect(step.stderr).toContain('in doubt: 2 of 2 batches (1001 recipients)');
    expect(step.summary).toContain('## pushctl send: in doubt (exit 5)');
    expect(`${step.stdout}${step.stderr}`).not.toMatch(/nothing sent|none accepted/);
    expect(runId).not.toBe('');
  });

  it('one request in doubt: its lines name no flag the action lacks and no command mangled into input names', async () => {
    writeFileSync(join(work, 'ids.txt'), 'device-a\ndevice-b\n');
    const step = await runStep(work, inputs({ 'base-url': dropping.url, 'client-ids-file': 'ids.txt' }));
    expect(step.code).toBe(5);
    expect(step.stderr).toContain('? in doubt: connection failed after the request was sent (ECONNRESET)');
    expect(step.stderr).toContain('pushctl did not retry, to avoid sending it twice.');
    expect(step.stderr).not.toMatch(/--retry-in-doubt|runs show \S+ the report input/);
  });
});
