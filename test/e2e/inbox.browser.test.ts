// The inbox page in a real browser (issue 13): Debian's chromium driven by playwright-core against a real
// `pushctl serve`, with messages sent by the built CLI while the page is open (no reload).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, startInbox, type Inbox, openInbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let dir: string;
let page: Page;
const send = (...args: string[]) => inbox.send(...args);

describe.skipIf(!browserFound)('the inbox page (chromium)', () => {
  beforeAll(async () => {
    inbox = await startInbox(
      (d) => ['--devices', join(d, 'devices.csv')],
      (d) =>
        writeFileSync(
          join(d, 'devices.csv'),
          ['client_id,country,language,brand,model,os_version,app_version', 'gb-1,GB,en-GB,Samsung,SM-A546B,33,3.1.0', 'gb-2,GB,en-GB,Google,Pixel 7,34,3.1.0', 'us-1,US,en-US,Google,Pixel 8,34,3.2.0'].join('\n'),
        ),
    );
    dir = inbox.dir;
    page = await openInbox(inbox);
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
  });

  it('a notification sent with the CLI appears without a reload: title, desc, button text, small-icon colour', async () => {
    expect((await send('send', '--all', '--title', 'Big news', '--desc', 'Version 2 is out', '--small-icon-color', '#FF5722')).code).toBe(0);
    const system = page.locator('article.entry', { hasText: 'Big news' });
    await system.waitFor();
    expect(await system.locator('.n-desc').textContent()).toBe('Version 2 is out');
    expect(await system.locator('.small-icon').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(255, 87, 34)');
    expect(await system.locator('.facts').textContent()).toContain('reached3 of 3 simulated devices');

    expect((await send('send', '--all', '--title', 'Sale', '--desc', 'Today only', '--style', 'button', '--button-text', 'Shop now', '--icon', 'https://example.com/i.png')).code).toBe(0);
    const button = page.locator('article.entry', { hasText: 'Sale' });
    await button.waitFor();
    expect(await button.locator('.n-button').textContent()).toBe('Shop now');
  });

  it('a rejected message shows its code and the reason naming the JSON path', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Broken', small_icon_color: 'red' } }));
    expect((await send('send', '--no-validate', '-f', 'bad.json')).code).toBe(4);
    const rejected = page.locator('article.entry.rejected', { hasText: 'Broken' });
    await rejected.waitFor();
    expect(await rejected.locator('.verdict').textContent()).toContain('21005');
    expect(await rejected.locator('.reasons').textContent()).toContain('notification.small_icon_color');
  });

  it('a data message shows its keys and its size against 2 KB', async () => {
    expect((await send('send', '--client-id', 'us-1,nobody', '--type', 'data', '-d', 'action=sync', '-d', 'page=7')).code).toBe(0);
    const data = page.locator('article.entry', { hasText: 'action' });
    await data.waitFor();
    expect(await data.locator('.kv th').allTextContents()).toEqual(['action', 'page']);
    expect(await data.locator('.size').textContent()).toMatch(/\d+ B of 2 KB/);
    expect(await data.locator('.facts').textContent()).toContain('1 of 3 simulated devices; 1 client ID unknown to the fleet');
  });

  it('a targeted send shows the right reached count for the devices file', async () => {
    expect((await send('send', '--country', 'gb', '--title', 'Only Britain')).code).toBe(0);
    const targeted = page.locator('article.entry', { hasText: 'Only Britain' });
    await targeted.waitFor();
    expect(await targeted.locator('.facts').textContent()).toContain('2 of 3 simulated devices');
    await page.locator('#device-list li', { hasText: 'gb-1' }).click();
    await page.locator('#device-inbox li', { hasText: 'Only Britain' }).waitFor();
  });

  it('filters and search narrow the list', async () => {
    await page.selectOption('#outcome', 'rejected');
    await expect.poll(() => page.locator('article.entry').count()).toBe(1);
    await page.selectOption('#outcome', '');
    await page.fill('#q', 'only brit');
    await expect.poll(() => page.locator('article.entry').allTextContents()).toEqual([expect.stringContaining('Only Britain')]);
    await page.fill('#q', '');
    await page.selectOption('#kind', 'data');
    await expect.poll(() => page.locator('article.entry').count()).toBe(1);
    await page.selectOption('#kind', '');
  });

  it('a dry run is marked not delivered, and the dark theme renders', async () => {
    expect((await send('dry-run', '--all', '--title', 'Rehearsal')).code).toBe(0);
    const dry = page.locator('article.entry.dry_run', { hasText: 'Rehearsal' });
    await dry.waitFor();
    expect(await dry.locator('.badge').textContent()).toBe('dry run — not delivered');
    await page.click('#theme');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(21, 23, 26)');
  });

  it('a request refused before its fields are judged says why: a body that is not JSON, a wrong secret, too many IDs', async () => {
    const post = (auth: string, body: string) => fetch(`${inbox.url}/v1/message/push/demo-app`, { method: 'POST', headers: { authorization: auth }, body });
    await post('demo-secret', '{"type": 1, "title": "Not JSON",');
    await post('wrong-secret', JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Wrong secret' } }));
    await post('demo-secret', JSON.stringify({ type: 2, time_to_live: 60, condition: { type: 2, client_ids: Array.from({ length: 1001 }, (_, i) => `id-${i}`) }, data: { k: 'Too many' } }));
    const verdict = (text: string) => page.locator('article.entry.rejected', { hasText: text }).locator('.verdict');
    await expect.poll(() => verdict('Not JSON').textContent()).toMatch(/^21005 message illegal.*the request body is not valid JSON/);
    await expect.poll(() => verdict('Wrong secret').textContent()).toMatch(/^21004 App Secret illegal.*does not match the secret of app "demo-app"/);
    await expect.poll(() => verdict('Too many').textContent()).toMatch(/^21006 client ID too much.*1001 client IDs in one request; at most 1000/);
    // The meaning is said once, not again at the start of the reason.
    expect(await verdict('Wrong secret').textContent()).not.toMatch(/App Secret illegal.*App Secret illegal/);
  });

  it('the clear button empties the list for every open page', async () => {
    await page.click('#clear');
    await page.click('#clear-confirm');
    await expect.poll(() => page.locator('article.entry').count()).toBe(0);
  });
});
