// The compose panel and the list, round 4 (issue 31), in chromium against a real `pushctl serve --fleet 20`:
// the bugs a newcomer met fixed (each its own test), findings named by the panel's fields and marked on them,
// every finding shown, and what Mailpit and the Firebase composer have: edit an entry in compose, data as
// key/value rows, delete one entry, the unread count in the tab's title, the audience while composing.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, composeOnFreshPage, openInbox, type Inbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let page: Page;

const field = (name: string) => page.locator(`#compose-fields [name=${name}]`);
const errors = () => page.locator('#compose-verdict .errors li').allTextContents();
const logged = async () => ((await (await fetch(`${inbox.url}/v1/emulator/requests`)).json()) as { total: number }).total;

async function compose(fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const input = field(name);
    if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
}

describe.skipIf(!browserFound)('the inbox, round 4 (chromium)', () => {
  composeOnFreshPage({ inbox: (started) => (inbox = started), page: (opened) => (page = opened) });

  it('in the JSON tab the fields are hidden, so a title left in them cannot contradict the JSON', async () => {
    await compose({ title: 'Hi' });
    await page.click('#compose .tab[data-mode=json]');
    await page.fill('#compose-json', '{"type": 1, "condition": {"type": 0}, "notification": {}}');
    expect(await page.locator('#compose-fields').isVisible()).toBe(false);
    expect(await field('title').isVisible()).toBe(false);
  });

  it('send with the secret left empty asks for it and sends nothing (no 21003 round trip)', async () => {
    await compose({ title: 'No secret typed' });
    const before = await logged();
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toContain('type the app secret first');
    expect(await page.locator('#compose-secret').getAttribute('placeholder')).not.toBe('demo-secret');
    expect(await logged()).toBe(before);
  });

  it('an answer shown for the last send goes once the message changes', async () => {
    await compose({ title: 'Sent once' });
    await page.fill('#compose-secret', 'demo-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toMatch(/^accepted: emu-/);
    await compose({ ttl: '0' });
    await expect.poll(() => page.locator('#compose-status').textContent()).toBe('');
  });

  it("every finding is shown, named by the panel's fields, and those inputs are marked", async () => {
    await compose({ audience: 'targeting', country: 'uk', title: 'Hi', ttl: '1y', smallIconColor: 'red' });
    await expect.poll(errors).toEqual([
      expect.stringMatching(/^TTL: TTL "1y" is not a duration/),
      expect.stringMatching(/^country: .*"UK"/),
      expect.stringMatching(/^small icon colour: /),
    ]);
    for (const text of await errors()) expect(text).not.toMatch(/--[a-z]/);
    for (const name of ['ttl', 'country', 'smallIconColor']) expect(await field(name).getAttribute('aria-invalid'), name).toBe('true');
    expect(await field('title').getAttribute('aria-invalid')).toBeNull();
  });

  it('"normalised" is not listed while there are errors, and is once the message is valid', async () => {
    await compose({ audience: 'targeting', country: 'gb', title: 'Hi', smallIconColor: 'red' });
    await expect.poll(errors).toHaveLength(1);
    expect(await page.locator('#compose-verdict .notes').count()).toBe(0);
    await compose({ smallIconColor: '' });
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
  });

  it('a data message is written as key/value rows, and the command has one --data each', async () => {
    await compose({ type: 'data' });
    await page.fill('#compose-data-rows .data-row:nth-child(1) .data-key', 'action');
    await page.fill('#compose-data-rows .data-row:nth-child(1) .data-value', 'sync');
    await page.click('#compose .add-row');
    await page.fill('#compose-data-rows .data-row:nth-child(2) .data-key', 'since');
    await page.fill('#compose-data-rows .data-row:nth-child(2) .data-value', '2024-01-01');
    await expect.poll(() => page.locator('#compose-command').textContent()).toContain('--type data --data action=sync --data since=2024-01-01');
    await expect.poll(() => page.locator('#compose-preview .kv').textContent()).toContain('since');
  });

  it('the audience is estimated against the fleet while composing', async () => {
    await compose({ title: 'Hi' });
    await expect.poll(() => page.locator('#compose-audience').textContent()).toBe('would reach 20 of 20 simulated devices');
    await compose({ audience: 'client-ids', clientIds: 'device-000001, device-000002, nobody' });
    await expect.poll(() => page.locator('#compose-audience').textContent()).toBe('would reach 2 of 20 simulated devices; 1 client ID unknown to the fleet');
  });

  it("an entry's edit in compose opens its message in the JSON tab, ready to send again", async () => {
    await inbox.send('send', '--all', '--title', 'Edit me', '--ttl', '1h');
    const entry = page.locator('article.entry', { hasText: 'Edit me' });
    await entry.locator('button.edit').click();
    expect(await page.locator('#compose .tab[data-mode=json]').getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse(await page.locator('#compose-json').inputValue())).toMatchObject({ time_to_live: 3600, notification: { title: 'Edit me' } });
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
  });

  it('delete removes one entry, for every open page and from the API', async () => {
    await inbox.send('send', '--all', '--title', 'Keep me');
    await inbox.send('send', '--all', '--title', 'Delete me');
    const other = await openInbox(inbox);
    await page.locator('article.entry', { hasText: 'Delete me' }).waitFor();
    const before = await logged();
    await page.locator('article.entry', { hasText: 'Delete me' }).locator('button.delete').click();
    await expect.poll(() => page.locator('article.entry', { hasText: 'Delete me' }).count()).toBe(0);
    await expect.poll(() => other.locator('article.entry', { hasText: 'Delete me' }).count()).toBe(0);
    expect(await page.locator('article.entry', { hasText: 'Keep me' }).count()).toBe(1);
    expect(await logged()).toBe(before - 1);
    await other.close();
  });

  it('the tab title counts entries that arrived and were not looked at', async () => {
    expect(await page.title()).toBe('pushctl inbox');
    await inbox.send('send', '--all', '--title', 'Unread one');
    await inbox.send('send', '--all', '--title', 'Unread two');
    await expect.poll(() => page.title()).toBe('(2) pushctl inbox');
    await page.locator('article.entry', { hasText: 'Unread one' }).locator('.meta').click();
    await expect.poll(() => page.title()).toBe('(1) pushctl inbox');
  });
});
