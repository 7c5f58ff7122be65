// A journal's message must agree with its plan (docs/behaviour.md#trust): a run to a list of client IDs whose
// header was edited to address an audience — every device, or a condition — is refused by `resend` (and its
// preview) and `runs show`, naming the field; it never turns a resend of two recipients into a push to every
// device. The built binary against the emulator on loopback.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/run-cli.js';
import { journalBench } from '../helpers/journal-bench.js';

const SECRET = 'plan-edit-S3CR3T-19c4';
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

const bench = journalBench('pushctl-plan-edit-', SECRET);

const cli = (args: string[]): Promise<CliResult> => bench.cli(args);
type Header = Record<string, unknown> & { message: Record<string, unknown>; variants?: Record<string, Record<string, unknown>> };

/** A run that reached nobody (nothing listens on its base URL), its header then rewritten by `edit`. */
async function unsentRun(args: string[], edit: (header: Header) => void): Promise<string> {
  const sent = await cli(['send', ...args, '--base-url', 'http://127.0.0.1:1', '--app-id', 'app', '--max-attempts', '1', '--json']);
  expect(sent.code, sent.stderr).toBe(5);
  const path = join(bench.journals, `${(JSON.parse(sent.stdout) as { run_id: string }).run_id}.jsonl`);
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = JSON.parse(lines[0]!) as Header;
  edit(header);
  lines[0] = JSON.stringify(header);
  writeFileSync(path, lines.join('\n'));
  return path;
}

const cases: { name: string; args: string[]; edit: (header: Header) => void; field: string }[] = [
  { name: 'every device', args: ['--title', 'Two people', '--client-id', 'a', '--client-id', 'b'], edit: (h) => (h.message.condition = { type: 0 }), field: 'message.condition' },
  {
    name: 'a condition',
    args: ['--title', 'Two people', '--client-id', 'a', '--client-id', 'b'],
    edit: (h) => (h.message.condition = { type: 1, targeting: { country: ['KE'] } }),
    field: 'message.condition',
  },
  {
    name: "every device, in one variant's message",
    args: ['-f', join(EXAMPLES, 'release-languages.json'), '--client-ids-file', join(EXAMPLES, 'devices.csv'), '--var', 'release.name=2.0', '--var', 'release.text=New', '--var', 'release.url=https://example.com/2'],
    edit: (h) => (h.variants!.fr!.condition = { type: 0 }),
    field: 'variants.fr.condition',
  },
];

describe('a run to client IDs whose journal was edited to address an audience', () => {
  for (const c of cases) {
    it(`${c.name}: resend, its preview and runs show refuse it naming ${c.field}, and nothing is sent`, async () => {
      const path = await unsentRun(c.args, c.edit);
      const before = bench.emulator.messages('app').length;
      for (const args of [['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app'], ['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app', '--dry-run'], ['runs', 'show', path]]) {
        const r = await cli(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(2);
        expect(r.stderr).toContain(`its header's ${c.field}`);
      }
      expect(bench.emulator.messages('app').length).toBe(before);
    });
  }

  it('unedited, the same run is resent to its two recipients', async () => {
    const path = await unsentRun(['--title', 'Two people', '--client-id', 'a', '--client-id', 'b'], () => {});
    const r = await cli(['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app']);
    expect(r.code, r.stderr).toBe(0);
    expect(bench.emulator.messages('app').at(-1)?.body).toMatchObject({ condition: { type: 2, client_ids: ['a', 'b'] } });
  });
});

describe('an error that quotes a journal', () => {
  const edits: [string, (h: Header) => void, string][] = [
    ['a variant tag', (h) => (h.variants = { '\u001b[31mfr': { condition: { type: 0 } } }), 'variants.\\x1b[31mfr.condition'],
    // Its plan made to read as cut short: the refusal names the run by its id.
    ['a run id', (h) => ((h.run_id = '\u001b]0;owned\u0007\u001b[2J'), (h.recipients = 5)), 'run \\x1b]0;owned\\x07\\x1b[2J'],
  ];
  // A control character other than the line break and tab: what would act on the terminal.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f]/;
  for (const [what, edit, shown] of edits) {
    it(`shows the terminal escapes of ${what} of an edited header, never applies them`, async () => {
      const path = await unsentRun(['--title', 'Two people', '--client-id', 'a', '--client-id', 'b'], edit);
      const shownBy = await cli(['runs', 'show', path]);
      expect(shownBy.stdout + shownBy.stderr).not.toMatch(ACTING);
      const refused = await cli(['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(shown);
      expect(refused.stderr).not.toMatch(ACTING);
    });
  }
});

describe('an outcome pushctl never writes', () => {
  /** A run of four recipients in two batches, to nobody (nothing listens), then lines added to its journal. */
  async function withLines(added: object[]): Promise<string> {
    const path = await unsentRun(['--title', 'Four', '--client-id', 'a', '--client-id', 'b', '--client-id', 'c', '--client-id', 'd', '--batch-size', '2'], () => {});
    const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('{"t":"end"'));
    // Batch 1 made to read as never started (its records gone), then the added lines and no closing record.
    const kept = lines.filter((l) => !/^\{"t":"(start|outcome)","b":1,/.test(l));
    writeFileSync(path, `${[...kept, ...added.map((r) => JSON.stringify(r))].join('\n')}\n`);
    return path;
  }

  it('"accepted" for an attempt that never started proves nothing: resend sends its batch', async () => {
    const path = await withLines([{ t: 'outcome', b: 1, a: 1, kind: 'accepted', message_id: 'emu-forged' }]);
    const r = await cli(['resend', path, '--base-url', bench.emulator.url, '--app-id', 'app', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(bench.emulator.messages('app').at(-1)?.body).toMatchObject({ condition: { type: 2, client_ids: ['a', 'b', 'c', 'd'] } });
  });

  it('"accepted" with no message_id is no answer pushctl records: its batch reads in doubt, not sent', async () => {
    const path = await withLines([{ t: 'start', b: 1, a: 1 }, { t: 'outcome', b: 1, a: 1, kind: 'accepted' }]);
    const shown = JSON.parse((await cli(['runs', 'show', path, '--json'])).stdout) as { run: { summary: { recipients: Record<string, number> } } };
    expect(shown.run.summary.recipients).toMatchObject({ accepted: 0, in_doubt: 2, not_sent: 2 });
  });
});
