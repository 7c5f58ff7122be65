// Variants by language (docs/behaviour.md#variants), end to end: the built binary against one `pushctl serve`
// started with a `--devices` CSV fleet of several languages, the same CSV given to --client-ids-file. Every
// device must receive exactly one message, in its language where a variant exists and the base message
// otherwise: read back from the emulator's inbox API and its recorded messages, never from pushctl's word.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/run-cli.js';
import { serveCli, type ServedCli } from '../helpers/serve-cli.js';
import { shellWords } from '../helpers/shell-words.js';

const SECRET = 'variants-S3CR3T-9b1e';
const APP = 'var-app';
const TITLES = { base: 'New release', fr: 'Nouvelle version', pt: 'Nova versão' };

/** The fleet's languages, each several times; '' is a device whose language is unknown. */
const LANGUAGES = ['en', 'fr', 'fr-CA', 'pt-BR', 'sw', ''];
const DEVICES = Array.from({ length: 30 }, (_, i) => ({ id: `dev-${String(i).padStart(3, '0')}`, language: LANGUAGES[i % LANGUAGES.length]! }));
/** The title each language should see: fr and fr-CA the French, pt-BR the Portuguese (bare `pt`), the rest the base. */
const expectedTitle = (language: string) => (language.startsWith('fr') ? TITLES.fr : language.startsWith('pt') ? TITLES.pt : TITLES.base);

const MESSAGE = {
  type: 1,
  time_to_live: 3600,
  notification: { title: TITLES.base, desc: 'Faster sends' },
  variants: { fr: { notification: { title: TITLES.fr } }, pt: { notification: { title: TITLES.pt, desc: 'Mais rápido' } } },
};

let dir: string;
let served: ServedCli;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-variants-'));
  // A field with a quoted comma proves the file is read as RFC 4180, not split at commas.
  const rows = DEVICES.map((d, i) => `${d.id},KE,${d.language},"TECNO, Mobile",Spark ${i},33,1.0`);
  writeFileSync(join(dir, 'devices.csv'), `client_id,country,language,brand,model,os_version,app_version\r\n${rows.join('\r\n')}\r\n`);
  writeFileSync(join(dir, 'message.json'), JSON.stringify(MESSAGE));
  served = await serveCli(['--app', `${APP}:${SECRET}`, '--rate', '0', '--devices', join(dir, 'devices.csv')]);
});
afterAll(async () => {
  await served.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  expect((await fetch(`${served.url}/v1/emulator/messages`, { method: 'DELETE' })).status).toBe(200);
});

const env = (journal = join(dir, 'runs')) => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: SECRET, PUSHCTL_JOURNAL_DIR: journal });
const cli = (args: string[], journal?: string) => runCli(args, { env: env(journal), cwd: dir });
const send = (...args: string[]) => cli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', ...args]);

interface InboxItem {
  title?: string;
}
const inboxOf = async (id: string) => ((await (await fetch(`${served.url}/v1/emulator/devices/${id}`)).json()) as { inbox: InboxItem[] }).inbox;

/** Every message the emulator delivered, oldest first: its title and the client IDs or languages it named. */
async function recorded(): Promise<{ title: string; ids: string[]; language?: string[] }[]> {
  const listed = (await (await fetch(`${served.url}/v1/emulator/messages?app=${APP}`)).json()) as {
    messages: { delivered: boolean; body: { notification: { title: string }; condition: { client_ids?: string[]; targeting?: { language?: string[] } } } }[];
  };
  return listed.messages
    .filter((m) => m.delivered)
    .map((m) => ({ title: m.body.notification.title, ids: m.body.condition.client_ids ?? [], ...(m.body.condition.targeting?.language ? { language: m.body.condition.targeting.language } : {}) }));
}

describe('variants to a CSV fleet of several languages', () => {
  it('gives every device exactly one message, in its language where a variant exists, the base otherwise', async () => {
    const r = await send('--client-ids-file', 'devices.csv', '--batch-size', '4', '--json');
    expect(r.code, r.stderr).toBe(0);
    for (const device of DEVICES) {
      const inbox = await inboxOf(device.id);
      expect(inbox.map((m) => m.title), `${device.id} (${device.language || 'no language'})`).toEqual([expectedTitle(device.language)]);
    }
    // One variant per request, no ID in two requests.
    const messages = await recorded();
    const seen = messages.flatMap((m) => m.ids);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(DEVICES.length);
    for (const m of messages) expect(new Set(m.ids.map((id) => expectedTitle(DEVICES.find((d) => d.id === id)!.language))), m.title).toEqual(new Set([m.title]));
    // The counts per language: 10 French (fr, fr-CA), 5 Portuguese, 15 the base message.
    const document = JSON.parse(r.stdout) as { variants: { language: string | null; label: string; recipients: { total: number; accepted: number } }[]; batches: { variant: string | null }[] };
    expect(document.variants.map((v) => [v.label, v.recipients.total, v.recipients.accepted])).toEqual([['fr', 10, 10], ['pt', 5, 5], ['base', 15, 15]]);
    expect(document.variants.at(-1)!.language).toBeNull();
    expect(document.batches.every((b) => b.variant === null || b.variant === 'fr' || b.variant === 'pt')).toBe(true);
  });

  it('counts per language in the human summary and in runs show', async () => {
    const journal = mkdtempSync(join(dir, 'runs-human-'));
    const r = await send('--client-ids-file', 'devices.csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('by language:\n  fr    10 recipients: 10 accepted\n  pt    5 recipients: 5 accepted\n  base  15 recipients: 15 accepted\n');
    const again = await cli(['dry-run', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--client-ids-file', 'devices.csv'], journal);
    expect(again.code, again.stderr).toBe(0);
    const runs = readdirSync(journal).filter((f) => f.endsWith('.jsonl'));
    const shown = await cli(['runs', 'show', join(journal, runs[0]!)], journal);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('  by language:\n    fr    10 recipients: 10 accepted\n');
    const json = await cli(['runs', 'show', join(journal, runs[0]!), '--json'], journal);
    expect((JSON.parse(json.stdout) as { run: { variants: { label: string }[] } }).run.variants.map((v) => v.label)).toEqual(['fr', 'pt', 'base']);
  });

  it('with condition targeting: one request per variant language, the base to the languages no variant covers', async () => {
    const r = await send('--country', 'KE', '--language', 'en,fr,fr-CA,pt-BR,sw', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect((await recorded()).map((m) => [m.title, m.language])).toEqual([
      [TITLES.fr, ['fr', 'fr-CA']],
      [TITLES.pt, ['pt-BR']],
      [TITLES.base, ['en', 'sw']],
    ]);
    for (const device of DEVICES) {
      const inbox = await inboxOf(device.id);
      // The device of unknown language is in no listed language: it gets nothing.
      expect(inbox.map((m) => m.title), device.id).toEqual(device.language === '' ? [] : [expectedTitle(device.language)]);
    }
  });

  it('with condition targeting, the run read back names every language its requests went to, as the send did', async () => {
    const journal = mkdtempSync(join(dir, 'runs-condition-'));
    const args = ['send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--country', 'KE', '--language', 'en,fr,fr-CA,pt-BR,sw', '--once', 'cond-words'];
    const sent = await cli([...args, '--json'], journal);
    expect(sent.code, sent.stderr).toBe(0);
    const audience = (JSON.parse(sent.stdout) as { audience: string }).audience;
    expect(audience).toMatch(/^condition: country KE, language (?=.*\ben\b)(?=.*\bfr-CA\b)(?=.*\bpt-BR\b)(?=.*\bsw\b)/);
    const run = readdirSync(journal).find((f) => f.endsWith('.jsonl'))!;
    // Not the base message's languages (en, sw) alone: the run went to all five.
    const shown = await cli(['runs', 'show', join(journal, run), '--json'], journal);
    expect((JSON.parse(shown.stdout) as { run: { audience: string } }).run.audience).toBe(audience);
    const listed = await cli(['runs', '--json'], journal);
    expect((JSON.parse(listed.stdout) as { runs: { audience: string }[] }).runs[0]!.audience).toBe(audience);
    const again = await cli(args, journal);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`to ${audience}; nothing was sent now`);
  });

  it('with condition targeting, the human summary counts requests to the audience, never "0 recipients"', async () => {
    const r = await send('--country', 'KE', '--language', 'en,fr,fr-CA,pt-BR,sw');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^sent: 3 batches to condition: country KE, language [^\n]+ \(one request per language variant\) in \d+\.\d s\n {2}accepted +3 batches\n/m);
    expect(r.stderr).not.toContain('0 recipients');
  });

  it('refuses --all, and targeting without --language, with variants: exit 3, nothing sent, the fix shown', async () => {
    for (const recipients of [['--all'], ['--country', 'KE']]) {
      const r = await send(...recipients);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain('the service cannot address "every other language"');
      expect(r.stderr).toMatch(/hint: .*--language fr,pt,en/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await recorded()).toEqual([]);
  });

  it('refuses fr and fr-CA to different requests, which would give fr-CA devices both: send and validate exit 3, nothing sent', async () => {
    const quebec = { ...MESSAGE, variants: { ...MESSAGE.variants, 'fr-CA': { notification: { title: 'Nouvelle version (Québec)' } } } };
    writeFileSync(join(dir, 'quebec.json'), JSON.stringify(quebec));
    const sent = await cli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'quebec.json', '--language', 'en,fr,fr-CA']);
    expect(sent.code, sent.stderr).toBe(3);
    expect(sent.stderr).toContain('a request to fr reaches fr-CA devices too: they would get both');
    expect(sent.stderr).toMatch(/^hint: list the regions of fr to reach, each as fr-XX, instead of fr, or leave fr-CA out/m);
    expect(await recorded()).toEqual([]);
    const checked = await cli(['validate', '-f', 'quebec.json', '--language', 'en,fr,fr-CA']);
    expect(checked.code, checked.stderr).toBe(3);
    expect(checked.stderr).toContain('a request to fr reaches fr-CA devices too');
    // The fix as the hint gives it: fr-CA left out, its devices get the fr variant, every device one message.
    const fixed = await cli(['send', '--base-url', served.url, '--app-id', APP, '-f', 'quebec.json', '--language', 'en,fr,pt-BR,sw']);
    expect(fixed.code, fixed.stderr).toBe(0);
    for (const device of DEVICES.filter((d) => d.language !== '')) expect((await inboxOf(device.id)).map((m) => m.title), device.id).toEqual([expectedTitle(device.language)]);
  });

  it('names a variant\'s issue with its language, and validate shows every variant as sent', async () => {
    const long = { ...MESSAGE, variants: { ...MESSAGE.variants, fr: { notification: { title: 'Une nouvelle version de votre application préférée est disponible dès maintenant' } } } };
    writeFileSync(join(dir, 'long.json'), JSON.stringify(long));
    const strict = await cli(['validate', '-f', 'long.json', '--client-ids-file', 'devices.csv', '--strict']);
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(/variants\.fr: notification\.title: \d+ characters/);
    const shown = await cli(['validate', '-f', 'message.json', '--client-ids-file', 'devices.csv']);
    expect(shown.code, shown.stderr).toBe(0);
    const printed = JSON.parse(shown.stdout) as { base: { notification: { title: string } }; variants: Record<string, { notification: { title: string; desc: string } }> };
    expect(printed.base.notification.title).toBe(TITLES.base);
    expect(printed.variants.pt!.notification).toEqual({ title: TITLES.pt, desc: 'Mais rápido' });
    expect(printed.variants.fr!.notification).toEqual({ title: TITLES.fr, desc: 'Faster sends' });
    const json = await cli(['validate', '-f', 'message.json', '--language', 'fr,pt', '--json']);
    expect(Object.keys((JSON.parse(json.stdout) as { variants: object }).variants)).toEqual(['fr', 'pt']);
  });

  it('a file addressed to every device, or --to an audience of every device, is refused without naming --all, which was not typed', async () => {
    writeFileSync(join(dir, 'everyone.json'), JSON.stringify({ ...MESSAGE, condition: { type: 0 } }));
    writeFileSync(join(dir, 'everyone-rc.json'), JSON.stringify({ audiences: { everyone: 'all' } }));
    // The file's own condition can be narrowed by --language; --to takes no --language, so its fix is the audience.
    const fixes = [/name the languages to reach instead, e\.g\. --language fr,pt,en/, /make audience "everyone" in \S*everyone-rc\.json a targeting that lists the languages, e\.g\. \{"targeting": \{"language": \["fr", "pt", "en"\]\}\}/];
    for (const [i, args] of [['-f', 'everyone.json'], ['-f', 'message.json', '--to', 'everyone', '-c', 'everyone-rc.json']].entries()) {
      const r = await cli(['validate', ...args]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain('every device with variants: the service cannot address "every other language"');
      expect(r.stderr).toMatch(fixes[i]!);
      expect(r.stderr).not.toContain('--all');
    }
  });

  it('validate shows each variant with the recipients send gives it: the IDs of its language, the base the rest', async () => {
    const shown = await cli(['validate', '-f', 'message.json', '--client-ids-file', 'devices.csv', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    type Body = { notification: { title: string }; condition: { client_ids: string[] } };
    const printed = JSON.parse(shown.stdout) as { body: Body; variants: Record<string, Body> };
    const sent = await send('--client-ids-file', 'devices.csv');
    expect(sent.code, sent.stderr).toBe(0);
    const messages = await recorded();
    const received = (title: string) => messages.filter((m) => m.title === title).flatMap((m) => m.ids);
    expect(printed.variants.fr!.condition.client_ids).toEqual(received(TITLES.fr));
    expect(printed.variants.pt!.condition.client_ids).toEqual(received(TITLES.pt));
    expect(printed.body.condition.client_ids).toEqual(received(TITLES.base));
    expect(printed.body.condition.client_ids).toHaveLength(15);
  });

  it('validate shows a base message no one gets with no recipients, as send sends it to none: no ID shown twice', async () => {
    // Every ID here has a variant's language (x twice: its first row's language, fr, is the one it gets).
    writeFileSync(join(dir, 'all-variants.csv'), 'client_id,language\r\nx,fr\r\ny,pt-BR\r\nx,en\r\n');
    const shown = await cli(['validate', '-f', 'message.json', '--client-ids-file', 'all-variants.csv', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    type Body = { condition: { client_ids: string[] } };
    const printed = JSON.parse(shown.stdout) as { body: Body; variants: Record<string, Body>; notes: { rule: string }[] };
    expect(printed.variants.fr!.condition.client_ids).toEqual(['x']);
    expect(printed.variants.pt!.condition.client_ids).toEqual(['y']);
    expect(printed.body.condition.client_ids).toEqual([]);
    expect(printed.notes).toContainEqual(expect.objectContaining({ rule: 'base-unused' }));
    // The same split by condition: every language listed has a variant, so the base goes to no language.
    const byCondition = await cli(['validate', '-f', 'message.json', '--country', 'KE', '--language', 'fr,pt-BR', '--json']);
    expect(byCondition.code, byCondition.stderr).toBe(0);
    expect((JSON.parse(byCondition.stdout) as { body: { condition: { targeting: { language: string[] } } } }).body.condition.targeting.language).toEqual([]);
  });

  it('validate names a variant no recipient gets, as send does', async () => {
    writeFileSync(join(dir, 'three.json'), JSON.stringify({ ...MESSAGE, variants: { ...MESSAGE.variants, de: { notification: { title: 'Neue Version' } } } }));
    const shown = await cli(['validate', '-f', 'three.json', '--client-ids-file', 'devices.csv', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const document = JSON.parse(shown.stdout) as { variants: object; warnings: { path: string; rule: string }[] };
    expect(Object.keys(document.variants)).toEqual(['fr', 'pt']);
    expect(document.warnings).toContainEqual(expect.objectContaining({ path: 'variants.de', rule: 'variant-unused' }));
  });

  it('validate narrows each variant\'s targeting.language as send does, and refuses what send refuses', async () => {
    const shown = await cli(['validate', '-f', 'message.json', '--country', 'KE', '--language', 'en,fr,fr-CA,pt-BR,sw', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    type Body = { condition: { targeting: { country: string[]; language: string[] } } };
    const printed = JSON.parse(shown.stdout) as { body: Body; variants: Record<string, Body> };
    expect(printed.variants.fr!.condition.targeting).toEqual({ country: ['KE'], language: ['fr', 'fr-CA'] });
    expect(printed.variants.pt!.condition.targeting).toEqual({ country: ['KE'], language: ['pt-BR'] });
    expect(printed.body.condition.targeting).toEqual({ country: ['KE'], language: ['en', 'sw'] });
    for (const recipients of [['--all'], ['--country', 'KE']]) {
      const sent = await send(...recipients);
      const checked = await cli(['validate', '-f', 'message.json', ...recipients]);
      expect([checked.code, sent.code], checked.stderr).toEqual([3, 3]);
      const reason = /the service cannot address "every other language"[^\n]*/.exec(sent.stderr)![0];
      expect(checked.stderr).toContain(reason);
      expect(checked.stderr).toMatch(/--language fr,pt,en/);
      const json = JSON.parse((await cli(['validate', '-f', 'message.json', ...recipients, '--json'])).stdout) as { ok: boolean; exit_code: number };
      expect([json.ok, json.exit_code]).toEqual([false, 3]);
    }
  });

  it('reads a CSV without variants as its client_id column, and still refuses a CSV without one', async () => {
    const plain = await cli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Plain', '--client-ids-file', 'devices.csv']);
    expect(plain.code, plain.stderr).toBe(0);
    expect((await recorded()).flatMap((m) => m.ids)).toEqual(DEVICES.map((d) => d.id));
    writeFileSync(join(dir, 'other.csv'), 'id,language\na,fr\n');
    const refused = await cli(['send', '--base-url', served.url, '--app-id', APP, '--title', 'Plain', '--client-ids-file', 'other.csv']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('looks like CSV');
  });
});

describe('a CSV long enough to be sent while it is read', () => {
  it('keeps each ID with its language: every ID once, each request one variant, each lane batched on its own', async () => {
    const total = 25_000;
    const language = (i: number) => LANGUAGES[i % LANGUAGES.length]!;
    const rows = Array.from({ length: total }, (_, i) => `big-${i},${language(i)}`);
    writeFileSync(join(dir, 'big.csv'), `client_id,language\n${rows.join('\n')}\n`);
    const r = await send('--client-ids-file', 'big.csv', '--json');
    expect(r.code, r.stderr).toBe(0);
    const messages = await recorded();
    const ids = messages.flatMap((m) => m.ids);
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(total);
    for (const m of messages) {
      const titles = new Set(m.ids.map((id) => expectedTitle(language(Number(id.slice(4))))));
      expect(titles, m.title).toEqual(new Set([m.title]));
    }
    // fr+fr-CA a third, pt-BR a sixth, the rest half: full batches of 1,000 and one short rest per lane.
    const requests = (title: string) => messages.filter((m) => m.title === title).length;
    expect([requests(TITLES.fr), requests(TITLES.pt), requests(TITLES.base)]).toEqual([Math.ceil(total / 3 / 1000), Math.ceil(total / 6 / 1000), Math.ceil(total / 2 / 1000)]);
  });
});

describe('a kill mid-run, then resend', () => {
  it('sends each remaining ID its own variant again, and no ID twice (except those in doubt)', async () => {
    const journalDir = mkdtempSync(join(dir, 'runs-kill-'));
    // One ID a request at 10 requests/s: the kill lands after a few of the thirty.
    const child = spawn(process.execPath, [BIN, 'send', '--base-url', served.url, '--app-id', APP, '-f', 'message.json', '--client-ids-file', 'devices.csv', '--batch-size', '1', '--rate', '10', '--concurrency', '1'], {
      cwd: dir,
      env: env(journalDir) as NodeJS.ProcessEnv,
      stdio: 'ignore',
    });
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        void recorded().then((messages) => {
          if (messages.length < 5) return;
          clearInterval(poll);
          resolve();
        });
      }, 20);
      void closed.then(() => reject(new Error('the send ended before it was killed')));
    });
    child.kill('SIGKILL');
    await closed;
    const before = await recorded();
    expect(before.length).toBeLessThan(DEVICES.length);
    const journal = join(journalDir, readdirSync(journalDir).find((f) => f.endsWith('.jsonl'))!);
    const shown = await cli(['runs', 'show', journal, '--json'], journalDir);
    const run = (JSON.parse(shown.stdout) as { run: { resend_command: string; in_doubt?: number } }).run;
    const [, ...args] = shellWords(run.resend_command);
    const resent = await cli(args, journalDir);
    expect(resent.code, resent.stderr).toBe(0);
    // Every device: its own language's title; exactly once, or at most once when its request was in doubt.
    const inDoubt = run.in_doubt ?? 0;
    let missing = 0;
    for (const device of DEVICES) {
      const titles = (await inboxOf(device.id)).map((m) => m.title);
      expect(titles.length, device.id).toBeLessThanOrEqual(1);
      if (titles.length === 0) missing += 1;
      else expect(titles, device.id).toEqual([expectedTitle(device.language)]);
    }
    expect(missing).toBeLessThanOrEqual(inDoubt);
    // The resend's requests (one per variant lane) carry each remaining ID once.
    const ids = (await recorded()).flatMap((m) => m.ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(DEVICES.length - missing);
  });
});
