// The compose panel's findings name the field to fix and mark its input, in chromium against a real
// `pushctl serve --fleet 20`: the cases where a finding named no field, or one the person never touched.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, composeOnFreshPage, type Inbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let page: Page;

const field = (name: string) => page.locator(`#compose-fields [name=${name}]`);
const errors = () => page.locator('#compose-verdict .errors li').allTextContents();
const marked = () => page.locator('#compose-fields [aria-invalid=true]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name')));

async function compose(fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const input = field(name);
    if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
}

describe.skipIf(!browserFound)('compose findings name their field (chromium)', () => {
  composeOnFreshPage({ inbox: (started) => (inbox = started), page: (opened) => (page = opened) });

  it('a notification with neither title nor text is named by its title field, which is marked', async () => {
    await compose({ title: 'Hi' });
    await compose({ title: '' });
    await expect.poll(errors).toEqual([expect.stringMatching(/^title: a notification needs a title or a desc/)]);
    expect(await marked()).toEqual(['title']);
  });

  it('client IDs chosen and none typed: the client IDs field is named and marked, and nothing else is blamed', async () => {
    await compose({ title: 'Hi', audience: 'client-ids', clientIds: ' , ' });
    await expect.poll(errors).toEqual([expect.stringMatching(/^client IDs: no client ID given — type one or more/)]);
    expect(await marked()).toEqual(['clientIds']);
    await compose({ clientIds: 'device-000001' });
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
  });

  it('targeting chosen and no criterion filled in says so, naming the criteria, instead of "condition is required"', async () => {
    await compose({ title: 'Hi', audience: 'targeting' });
    await expect.poll(errors).toEqual([expect.stringMatching(/^audience: targeting with no criterion filled in — fill in at least one of country, language/)]);
    expect(await marked()).toEqual(['audience']);
    await compose({ country: 'GB' });
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
  });

  it("a new entry's first click reaches its button, though marking it read reflows the card (a dry run's top line wraps with \"new\")", async () => {
    expect((await inbox.send('dry-run', '--all', '--title', 'Clicked once')).code).toBe(0);
    await page.locator('#compose-audience', { hasText: 'would reach' }).waitFor();
    await page.locator('article.entry', { hasText: 'Clicked once' }).locator('button.edit').click();
    expect(await page.locator('#compose .tab[data-mode=json]').getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse(await page.locator('#compose-json').inputValue())).toMatchObject({ notification: { title: 'Clicked once' } });
  });

  it('a dry run edited in compose is not sent as a delivery: "dry_run": true is refused unless "dry run" is ticked, as pushctl send refuses it', async () => {
    expect((await inbox.send('dry-run', '--all', '--title', 'Rehearsed')).code).toBe(0);
    // The panel's audience line appears a moment after it opens and moves the list down: wait for it first.
    await page.locator('#compose-audience', { hasText: 'would reach' }).waitFor();
    await page.locator('article.entry', { hasText: 'Rehearsed' }).locator('button.edit').click();
    await expect.poll(errors).toEqual([expect.stringMatching(/"dry_run": true, but send delivers.*tick "dry run"/)]);
    expect(await page.locator('#compose-send').isDisabled()).toBe(true);
    await page.check('#compose-dry-run');
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
    expect(await page.locator('#compose-command').textContent()).toMatch(/^pushctl dry-run -f - /);
  });

  it('pasted JSON with two bad data values names each key, not "data" twice', async () => {
    await page.click('#compose .tab[data-mode=json]');
    await page.fill('#compose-json', JSON.stringify({ type: 2, time_to_live: 60, condition: { type: 0 }, data: { user: { id: 1 }, tags: ['a'] } }));
    await expect.poll(errors).toEqual([expect.stringMatching(/^data "user": must be a string/), expect.stringMatching(/^data "tags": must be a string/)]);
  });
});
