// A hostile round against the inbox page, in chromium against a real `pushctl serve --fleet 20`: what the
// compose panel sends must be what its fields show, and what it cannot send as shown it refuses, naming the
// field (docs/behaviour.md#inbox).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { browserFound, composeOnFreshPage, type Inbox } from '../helpers/inbox-browser.js';
import { BIN, runCli } from '../helpers/run-cli.js';

let inbox: Inbox;
let page: Page;

interface Logged {
  total: number;
  entries: { body?: { data?: Record<string, string> } }[];
}
const logged = async () => (await (await fetch(`${inbox.url}/v1/emulator/requests`)).json()) as Logged;

async function dataRow(key: string, value: string): Promise<void> {
  await page.locator('#compose-fields [name=type]').selectOption('data');
  await page.fill('#compose-data-rows .data-row:nth-child(1) .data-key', key);
  await page.fill('#compose-data-rows .data-row:nth-child(1) .data-value', value);
}

describe.skipIf(!browserFound)('the inbox against hostile input (chromium)', () => {
  composeOnFreshPage({ inbox: (started) => (inbox = started), page: (opened) => (page = opened) });

  it('a data key holding "=" is refused, naming the key, and nothing is sent (--data would cut the key at it)', async () => {
    await dataRow('a=b', 'c');
    await page.locator('#compose-verdict .errors li', { hasText: '"a=b"' }).waitFor();
    expect((await page.locator('#compose-verdict .errors li').allTextContents()).join('\n')).toMatch(/^data: key "a=b"/m);
    expect(await page.locator('#compose-send').isDisabled()).toBe(true);
    expect(await page.locator('#compose-data-rows .data-row:nth-child(1) .data-key').getAttribute('class')).toContain('invalid');
  });

  it('a data value is sent as typed, spaces at its end kept, and the command carries the same value', async () => {
    const before = (await logged()).total;
    await dataRow('note', 'two spaces  ');
    await page.fill('#compose-secret', 'demo-secret');
    await expect.poll(() => page.locator('#compose-command').textContent()).toContain("--data 'note=two spaces  '");
    await page.click('#compose-send');
    await page.locator('#compose-status .good').waitFor();
    const after = await logged();
    expect(after.total).toBe(before + 1);
    expect(after.entries[0]!.body!.data).toEqual({ note: 'two spaces  ' });
  });

  it('an entry deleted beyond the page leaves the list\'s "older" count right, filtered or not', async () => {
    await fetch(`${inbox.url}/v1/emulator/messages`, { method: 'DELETE' });
    const push = (title: string) =>
      fetch(`${inbox.url}/v1/message/push/demo-app`, {
        method: 'POST',
        headers: { authorization: 'demo-secret', 'content-type': 'application/json' },
        body: JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title } }),
      });
    for (let i = 0; i < 203; i++) await push(`older ${i}`);
    const oldest = async () => ((await (await fetch(`${inbox.url}/v1/emulator/requests?limit=1000`)).json()) as { entries: { seq: number }[] }).entries.at(-1)!.seq;
    for (const address of ['/', '/?q=older']) {
      await page.goto(`${inbox.url}${address}`);
      await page.locator('#live.on').waitFor();
      const before = await page.locator('button.older').textContent();
      const total = Number(/of (\d+):/.exec(before ?? '')![1]);
      await fetch(`${inbox.url}/v1/emulator/requests/${await oldest()}`, { method: 'DELETE' });
      await page.locator('button.older', { hasText: `of ${total - 1}:` }).waitFor();
      expect(await page.locator('button.older').textContent()).toBe(`showing the newest 200 of ${total - 1}: show ${total - 201} older`);
    }
  }, 60_000);

  it('a title with a bidi override: the command shows no invisible character, and pasted into a shell sends that very title', async () => {
    // U+202E would show `exe.txt` as `txt.exe` in the command (and in a terminal); the bell would ring on paste.
    const title = 'invoice \u202Etxt.exe\u0007 done';
    await page.fill('#compose-fields [name=title]', title);
    await page.locator('#compose-verdict .verdict-line', { hasText: 'valid' }).waitFor();
    const command = (await page.locator('#compose-command').textContent()) ?? '';
    expect(command).toContain('--title');
    expect(command).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    for (const shell of ['bash', 'dash']) {
      execFileSync(shell, ['-c', `pushctl() { "${process.execPath}" "${BIN}" "$@"; }\n${command}`], { env: inbox.env() as NodeJS.ProcessEnv, stdio: 'ignore' });
      const newest = (await (await fetch(`${inbox.url}/v1/emulator/requests?limit=1`)).json()) as { entries: { body?: { notification?: { title?: string } } }[] };
      expect(newest.entries[0]!.body!.notification!.title, shell).toBe(title);
    }
  });

  it('pasted JSON with a bidi override: its command shows no invisible character, and run by a shell sends that very title', async () => {
    const title = 'JSON \u202Etxt.exe\u200B done';
    await page.click('#compose .tab[data-mode=json]');
    await page.fill('#compose-json', `\uFEFF${JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title } })}`);
    await page.locator('#compose-verdict .verdict-line', { hasText: 'valid' }).waitFor();
    const command = (await page.locator('#compose-command').textContent()) ?? '';
    expect(command).toContain('-f -');
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(command).not.toMatch(/[\0-\x08\x0B-\x1F\p{Cf}]/u);
    execFileSync('bash', ['-c', `pushctl() { "${process.execPath}" "${BIN}" "$@"; }\n${command}`], { env: inbox.env() as NodeJS.ProcessEnv, stdio: 'ignore' });
    const newest = (await (await fetch(`${inbox.url}/v1/emulator/requests?limit=1`)).json()) as { entries: { body?: { notification?: { title?: string } } }[] };
    expect(newest.entries[0]!.body!.notification!.title).toBe(title);
  });

  it('pasted JSON with variants is refused naming variants (one request cannot carry them), and its command sends one per language', async () => {
    const message = { type: 1, time_to_live: 60, condition: { type: 1, targeting: { language: ['fr', 'en'] } }, notification: { title: 'Hello' }, variants: { fr: { notification: { title: 'Bonjour' } } } };
    await page.click('#compose .tab[data-mode=json]');
    await page.fill('#compose-json', JSON.stringify(message));
    await page.locator('#compose-verdict .errors li', { hasText: 'variants' }).waitFor();
    const errors = await page.locator('#compose-verdict .errors li').allTextContents();
    expect(errors.join('\n')).not.toContain('unknown field');
    expect(errors.join('\n')).toContain('one request per language');
    expect(await page.locator('#compose-send').isDisabled()).toBe(true);
    const before = (await logged()).total;
    const command = (await page.locator('#compose-command').textContent()) ?? '';
    execFileSync('bash', ['-c', `pushctl() { "${process.execPath}" "${BIN}" "$@"; }\n${command}`], { env: inbox.env() as NodeJS.ProcessEnv, stdio: 'ignore' });
    const after = await logged();
    expect(after.total).toBe(before + 2);
  });

  it('clearing empties the devices\' inboxes on the page too, as it does in the API', async () => {
    const sent = await inbox.send('send', '--all', '--title', 'before the clear');
    expect(sent.code, sent.stderr).toBe(0);
    await page.locator('#device-list li', { hasText: 'last: before the clear' }).first().waitFor();
    await page.click('#clear');
    await page.click('#clear-confirm');
    await page.locator('#count', { hasText: /^0 requests$/ }).waitFor();
    const api = (await (await fetch(`${inbox.url}/v1/emulator/devices?limit=1`)).json()) as { devices: { inbox: number }[] };
    expect(api.devices[0]!.inbox).toBe(0);
    await page.locator('#device-list li .inbox-count', { hasText: '0 messages' }).first().waitFor();
    expect(await page.locator('#device-list li .device-last').count()).toBe(0);
  });

  it('"open an activity" with no activity named is refused naming the field, as pushctl refuses --open-activity \'\'', async () => {
    await page.fill('#compose-fields [name=title]', 'Tap me');
    await page.locator('#compose-fields [name=onTap]').selectOption('activity');
    await page.locator('#compose-verdict .errors li', { hasText: 'activity' }).waitFor();
    expect(await page.locator('#compose-verdict .errors li').allTextContents()).toEqual(["open: open \"\" names no activity — give the activity's name, such as com.example.app.NewsActivity, or open the app instead (on tap)"]);
    expect(await page.locator('#compose-send').isDisabled()).toBe(true);
    const cli = await runCli(['validate', '--all', '--title', 'Tap me', '--open-activity', ''], { env: inbox.env(), cwd: inbox.dir });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('error: --open-activity "" names no activity\nhint: give the activity\'s name, such as com.example.app.NewsActivity, or open the app instead (--open-app)');
  });
});
