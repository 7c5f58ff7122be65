// The inbox against Mailpit's web UI (issue 22) and hostile text (issue 21), in chromium against a real
// `pushctl serve --fleet 1000`: permalinks, filters in the address, the header's count, the paged device
// list, clear asking first, dry runs' audience, warnings under their own label, bidi controls shown inert,
// and a CSP without inline script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, startInbox, type Inbox, openInbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let page: Page;

/** The message_id of the newest accepted message whose title is `title`. */
async function messageIdOf(title: string): Promise<string> {
  const { messages } = (await (await fetch(`${inbox.url}/v1/emulator/messages`)).json()) as { messages: { message_id: string; body: { notification?: { title?: string } } }[] };
  const found = messages.filter((m) => m.body.notification?.title === title).at(-1);
  if (!found) throw new Error(`no message titled ${title}`);
  return found.message_id;
}

describe.skipIf(!browserFound)('the inbox page: links, filters, devices, hostile text (chromium)', () => {
  beforeAll(async () => {
    inbox = await startInbox(() => ['--fleet', '1000']);
    for (const title of ['First light', 'Second wind', 'Third time']) expect((await inbox.send('send', '--all', '--title', title)).code).toBe(0);
    expect((await inbox.send('dry-run', '--country', 'US', '--title', 'Rehearsal')).code).toBe(0);
    expect((await inbox.send('send', '--client-id', 'device-000007', '--title', 'Just seven', '--style', 'button', '--button-text', 'Go')).code).toBe(0);
    page = await openInbox(inbox);
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
  });

  it('serves the script as a file under a CSP with no unsafe-inline that forbids framing', async () => {
    const answer = await fetch(`${inbox.url}/`);
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await page.locator('script:not([src])').count()).toBe(0);
    const script = await fetch(`${inbox.url}/inbox.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-security-policy')).toBe(csp);
    const icon = await fetch(`${inbox.url}/favicon.svg`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await page.locator('link[rel=icon]').getAttribute('href')).toBe('/favicon.svg');
  });

  it('a permalink #/m/<message_id> opens that message alone, its JSON open; the list links to it', async () => {
    const id = await messageIdOf('Second wind');
    const other = await inbox.browser.newPage();
    await other.goto(`${inbox.url}/#/m/${id}`);
    const entry = other.locator('article.entry');
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.locator('.n-title').textContent()).toBe('Second wind');
    expect(await entry.locator('details.json').getAttribute('open')).not.toBeNull();
    await other.click('.permalink-bar a');
    await expect.poll(() => other.locator('article.entry').count()).toBe(5);
    await other.locator('article.entry', { hasText: 'First light' }).locator('a.mid').click();
    expect(other.url()).toBe(`${inbox.url}/#/m/${await messageIdOf('First light')}`);
    await expect.poll(() => other.locator('article.entry').allTextContents()).toEqual([expect.stringContaining('First light')]);
    await other.close();
  });

  it('filters and search go into the address and survive a reload; the header counts what they show', async () => {
    const other = await inbox.browser.newPage();
    await other.goto(`${inbox.url}/`);
    await expect.poll(() => other.locator('#count').textContent()).toBe('5 requests');
    await other.selectOption('#kind', 'notification');
    await other.fill('#q', 'wind');
    await expect.poll(() => other.url()).toBe(`${inbox.url}/?kind=notification&q=wind`);
    await other.reload();
    expect(await other.inputValue('#kind')).toBe('notification');
    expect(await other.inputValue('#q')).toBe('wind');
    await expect.poll(() => other.locator('article.entry').allTextContents()).toEqual([expect.stringContaining('Second wind')]);
    expect(await other.locator('#count').textContent()).toBe('1 of 5 requests match');
    await other.close();
  });

  it('the device list is paged with a total and reaches device 1,000; counts say what they count', async () => {
    await expect.poll(() => page.locator('#device-range').textContent()).toBe('1–100 of 1,000');
    expect(await page.locator('#device-count').textContent()).toBe('1,000 simulated devices');
    expect(await page.locator('#device-list li', { hasText: 'device-000007' }).locator('.inbox-count').textContent()).toBe('4 messages');
    for (let i = 0; i < 9; i++) await page.click('#device-next');
    await expect.poll(() => page.locator('#device-range').textContent()).toBe('901–1,000 of 1,000');
    await page.locator('#device-list li', { hasText: 'device-001000' }).waitFor();
    expect(await page.locator('#device-next').isDisabled()).toBe(true);
  });

  it("a device's inbox lists its messages as links to their permalinks", async () => {
    await page.fill('#device-q', 'device-000007');
    await page.locator('#device-list li', { hasText: 'device-000007' }).click();
    await page.locator('#device-inbox a', { hasText: 'Just seven' }).click();
    expect(page.url()).toBe(`${inbox.url}/#/m/${await messageIdOf('Just seven')}`);
    await expect.poll(() => page.locator('article.entry').allTextContents()).toEqual([expect.stringContaining('Just seven')]);
    await page.goto(`${inbox.url}/`);
  });

  it('a dry run says whom it would reach; the button-style warning has its own label', async () => {
    const dry = page.locator('article.entry.dry_run', { hasText: 'Rehearsal' });
    const entry = ((await (await fetch(`${inbox.url}/v1/emulator/requests?outcome=dry_run`)).json()) as { entries: { would_reach: number }[] }).entries[0]!;
    expect(entry.would_reach).toBeGreaterThan(0);
    expect(await dry.locator('.facts').textContent()).toContain(`would reach${entry.would_reach} of 1,000 simulated devices`);
    const button = page.locator('article.entry', { hasText: 'Just seven' });
    expect(await button.locator('dt').allTextContents()).toContain('button style');
    expect(await button.locator('dt').allTextContents()).not.toContain('no effect');
  });

  it('a right-to-left override in an app name or a title is shown as <U+202E>, never applied', async () => {
    const hostile = 'dev-\u202Egnp.exe';
    await fetch(`${inbox.url}/v1/message/push/${encodeURIComponent(hostile)}`, { method: 'POST', headers: { authorization: 'x' }, body: '{}' });
    expect((await inbox.send('send', '--all', '--title', `invoice-\u202Efdp.exe and zero\u200Bwidth`)).code).toBe(0);
    const rejected = page.locator('article.entry.rejected');
    await rejected.waitFor();
    expect(await rejected.locator('.app').textContent()).toBe('dev-<U+202E>gnp.exe');
    expect(await rejected.locator('.app .invisible').count()).toBe(1);
    const title = page.locator('article.entry', { hasText: 'invoice-' }).locator('.n-title');
    await title.waitFor();
    expect(await title.textContent()).toBe('invoice-<U+202E>fdp.exe and zero<U+200B>width');
    await page.locator('article.entry', { hasText: 'invoice-' }).locator('summary').click();
    expect(await page.locator('article.entry', { hasText: 'invoice-' }).locator('pre').textContent()).toContain('invoice-<U+202E>fdp.exe');
    expect(await page.locator('#app').locator('option').allTextContents()).toContain('dev-<U+202E>gnp.exe');
    // No bidi control or zero-width character reaches the rendered text anywhere on the page.
    expect(await page.evaluate(() => /[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/.test(document.body.innerText))).toBe(false);
  });

  it('a 5,000-character title is cut in the list as a phone cuts it, the page keeps its width, and the full text is one click away', async () => {
    const long = `Release notes ${'x'.repeat(5000)}`;
    expect((await inbox.send('send', '--all', '--title', long)).code).toBe(0);
    const title = page.locator('article.entry', { hasText: 'Release notes' }).locator('.n-title');
    await title.waitFor();
    expect(await title.locator('button.expand').textContent()).toBe('show all 5,014 characters');
    expect((await title.textContent())!.length).toBeLessThan(100);
    // The CLI's warning about it (rule display-length) is listed under its own label.
    expect(await page.locator('article.entry', { hasText: 'Release notes' }).locator('dt').allTextContents()).toContain('cut on a phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await title.locator('button.expand').click();
    expect(await title.textContent()).toContain(long);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('a list longer than a page says so and loads the older ones on request', async () => {
    for (let i = 0; i < 205; i++) {
      const body = { type: 2, time_to_live: 60, condition: { type: 2, client_ids: ['device-000001'] }, data: { n: String(i), page: 'older-than-a-page' } };
      await fetch(`${inbox.url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: 'demo-secret' }, body: JSON.stringify(body) });
    }
    const other = await inbox.browser.newPage();
    // Filtered to this test's own entries, so the test is about paging. (On a loaded machine this page once
    // counted 135 entries twice: the event stream sent a new reader the requests of the window it joined in,
    // which its list already held; the stream and the page now agree on where the list ends, last_seq.)
    await other.goto(`${inbox.url}/?kind=data&q=older-than-a-page`);
    const older = other.locator('button.older');
    await expect.poll(() => older.textContent()).toBe('showing the newest 200 of 205: show 5 older');
    await older.click();
    await expect.poll(() => other.locator('article.entry').count()).toBe(205);
    expect(await older.count()).toBe(0);
    await other.close();
  });

  it('clear asks first: cancel keeps everything, confirm clears', async () => {
    await page.reload();
    const before = ((await (await fetch(`${inbox.url}/v1/emulator/requests`)).json()) as { total: number }).total;
    expect(before).toBeGreaterThan(200);
    await page.click('#clear');
    const dialog = page.locator('#clear-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`forgets ${before} requests`);
    await page.click('#clear-cancel');
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.locator('article.entry').count()).toBe(200);
    expect(((await (await fetch(`${inbox.url}/v1/emulator/requests`)).json()) as { total: number }).total).toBe(before);
    await page.click('#clear');
    await page.click('#clear-confirm');
    await expect.poll(() => page.locator('article.entry').count()).toBe(0);
  });
});
