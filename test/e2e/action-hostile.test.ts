// The action facing a hostile service: a message_id with line breaks and workflow commands in it, and a
// rejection message full of Markdown and HTML, must reach the step's log and job summary as inert text.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const ACTION = fileURLToPath(new URL('../../action/index.js', import.meta.url));
const FORGED_ID = 'msg-1\n::error title=forged::pwned\n::add-mask::everything';
const REJECTION = 'bad\r\n::warning title=forged::x <img src=x onerror=alert(1)> **loud**';

let work: string;
let server: ScriptedServer | undefined;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'pushctl-action-hostile-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(work, { recursive: true, force: true });
});

function runAction(baseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string; summary: string }> {
  const summaryFile = join(work, 'step-summary');
  writeFileSync(summaryFile, '');
  writeFileSync(join(work, 'msg.json'), '{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"t"}}\n');
  const env = cleanEnv({ HOME: work, GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: work, GITHUB_OUTPUT: join(work, 'out'), GITHUB_STEP_SUMMARY: summaryFile, INPUT_FILE: 'msg.json', 'INPUT_APP-ID': 'app', 'INPUT_APP-SECRET': 'hostile-S3CRET', 'INPUT_BASE-URL': baseUrl });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ACTION], { cwd: work, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, summary: readFileSync(summaryFile, 'utf8') }));
  });
}

/** Every workflow command the runner would read from the step's output. */
const commands = (run: { stdout: string; stderr: string }) => `${run.stdout}\n${run.stderr}`.split(/\r?\n|\r/).filter((line) => line.trimStart().startsWith('::'));

describe('the action with a hostile service', () => {
  it('a message_id with line breaks forges no workflow command and stays inert in the summary', async () => {
    server = await startScriptedServer([{ status: 200, body: { status: 200, message: 'OK', result: { message_id: FORGED_ID } } }]);
    const run = await runAction(server.url);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(commands(run)).toEqual(['::add-mask::hostile-S3CRET']);
    expect(run.summary.split('\n').filter((line) => line.startsWith('::'))).toEqual([]);
    expect(run.summary).toContain('`msg-1\\n::error title=forged::pwned\\n::add-mask::everything`');
  });

  it("a rejection message with line breaks, HTML and Markdown: one error annotation, and the summary's text escaped", async () => {
    server = await startScriptedServer([{ status: 200, body: { status: 21005, message: REJECTION } }]);
    const run = await runAction(server.url);
    expect(run.code).toBe(4);
    const forged = commands(run).filter((line) => !line.startsWith('::add-mask::'));
    expect(forged).toHaveLength(1);
    expect(forged[0]).toMatch(/^::error title=pushctl::pushctl exited 4/);
    // Rendered as GitHub renders a summary (raw HTML on, before sanitising): no element from the service.
    const html = new MarkdownIt({ html: true, linkify: true }).render(run.summary);
    expect(html).not.toMatch(/<img|<strong>|<a /);
  });
});
