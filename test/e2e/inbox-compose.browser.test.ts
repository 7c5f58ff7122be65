// The inbox's compose panel (issue 22), in chromium against a real `pushctl serve`: checked by the CLI's own
// rules (the same error text as `pushctl validate`), a phone preview that cuts long text as a phone does,
// a copied command that runs as printed, and a send to this emulator whose secret is kept nowhere.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, startInbox, type Inbox, openInbox } from '../helpers/inbox-browser.js';
import { runCli } from '../helpers/run-cli.js';
import { shellWords } from '../helpers/shell-words.js';
import { fieldOfPath, inPanelTerms } from '../../src/emulator/web/panel-terms.js';

let inbox: Inbox;
let page: Page;

/**
 * The error lines `pushctl validate` prints (the indented lines under `errors:`), as the panel says them
 * (issue 31): the field's label where the CLI names the JSON path, the panel's fields for its flags.
 */
async function validateErrors(...args: string[]): Promise<string[]> {
  const result = await runCli(['validate', ...args], { env: inbox.env(), cwd: inbox.dir });
  expect(result.code).toBe(3);
  const lines = (result.stderr.split('errors:\n')[1] ?? '').split('\n');
  const end = lines.findIndex((line) => !line.startsWith('  '));
  return lines
    .slice(0, end < 0 ? undefined : end)
    .map((line) => line.trim().replace(/^([\w.[\]]+): /, (named, path: string) => (fieldOfPath(path) ? `${fieldOfPath(path)!.label}: ` : named)))
    .map(inPanelTerms);
}

async function compose(fields: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const input = page.locator(`#compose-fields [name=${name}]`);
    if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
}

describe.skipIf(!browserFound)('the inbox compose panel (chromium)', () => {
  beforeAll(async () => {
    inbox = await startInbox(() => ['--fleet', '20']);
    page = await openInbox(inbox);
    await page.click('#compose-toggle');
    await page.locator('#compose').waitFor();
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
  });

  it('a bad small_icon_color shows the same error as pushctl validate, and nothing can be sent', async () => {
    await compose({ title: 'Hi', smallIconColor: 'red' });
    const expected = await validateErrors('--all', '--title', 'Hi', '--small-icon-color', 'red');
    expect(expected).toHaveLength(1);
    await expect.poll(() => page.locator('#compose-verdict .errors li').allTextContents()).toEqual(expected);
    expect(await page.locator('#compose-verdict .verdict-line').textContent()).toBe('invalid: 1 error, nothing would be sent');
    expect(await page.locator('#compose-send').isDisabled()).toBe(true);
  });

  it('pasted JSON is checked by the same rules: the same error as pushctl validate -f', async () => {
    const json = JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'x', small_icon_color: '#FFF' } }, null, 2);
    writeFileSync(join(inbox.dir, 'bad.json'), json);
    const expected = await validateErrors('-f', 'bad.json');
    await page.click('#compose .tab[data-mode=json]');
    await page.fill('#compose-json', json);
    await expect.poll(() => page.locator('#compose-verdict .errors li').allTextContents()).toEqual(expected);
    await page.click('#compose .tab[data-mode=fields]');
  });

  it('a good message gets a phone preview and a pushctl command that runs as printed', async () => {
    await compose({ title: 'Hello from compose', desc: 'It works', smallIconColor: '#FF5722', onTap: 'url', openContent: 'https://example.com/news', ttl: '6h' });
    await expect.poll(() => page.locator('#compose-verdict .verdict-line').textContent()).toBe('valid');
    const preview = page.locator('#compose-preview .notification');
    expect(await preview.locator('.n-title').textContent()).toBe('Hello from compose');
    expect(await preview.locator('.n-desc').textContent()).toBe('It works');
    expect(await preview.locator('.small-icon').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(255, 87, 34)');
    expect(await preview.locator('.n-click').textContent()).toBe('on tap: opens https://example.com/news');
    const command = (await page.locator('#compose-command').textContent()) ?? '';
    expect(command).toBe(`pushctl send --all --title 'Hello from compose' --desc 'It works' --small-icon-color '#FF5722' --open-url https://example.com/news --ttl 6h --base-url ${inbox.url} --app-id demo-app`);
    const [, ...argv] = shellWords(command);
    const sent = await runCli(argv, { env: inbox.env(), cwd: inbox.dir });
    expect(sent.code).toBe(0);
    await page.locator('article.entry', { hasText: 'Hello from compose' }).waitFor();
  });

  it('a title longer than the shade shows is cut in the preview, the full text one click away', async () => {
    const long = `Breaking: ${'very '.repeat(1000)}long`;
    await compose({ title: long });
    const title = page.locator('#compose-preview .n-title');
    await expect.poll(async () => (await title.textContent())?.startsWith('Breaking: very very')).toBe(true);
    const shownText = () => title.evaluate((node) => Array.from(node.childNodes).filter((child) => child.nodeName !== 'BUTTON').map((child) => child.textContent).join(''));
    const cut = await shownText();
    expect(Array.from(cut).length).toBeLessThanOrEqual(50);
    expect(cut.endsWith('…')).toBe(true);
    expect(await title.locator('button.expand').textContent()).toBe(`show all ${Array.from(long).length.toLocaleString('en-US')} characters`);
    await title.locator('button.expand').click();
    expect(await shownText()).toBe(long);
    await compose({ title: 'Hello from compose' });
  });

  it('sends to this emulator with the secret typed in the panel, and keeps the secret nowhere', async () => {
    await compose({ title: 'Composed and sent', desc: 'from the page' });
    await page.fill('#compose-secret', 'wrong-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toContain('21004');
    await page.fill('#compose-secret', 'demo-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toMatch(/^accepted: emu-/);
    await page.locator('article.entry.accepted', { hasText: 'Composed and sent' }).waitFor();
    await page.locator('#compose-status a').click();
    await expect.poll(() => page.locator('article.entry').allTextContents()).toEqual([expect.stringContaining('Composed and sent')]);
    const kept = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href, cookie: document.cookie }));
    expect(kept).not.toContain('demo-secret');
    expect(await page.locator('#compose-command').textContent()).not.toContain('demo-secret');
  });

  it('a dry run from the panel is pushctl dry-run, reaches no one, and says whom it would reach', async () => {
    await page.goto(`${inbox.url}/?compose`);
    await compose({ title: 'Only a rehearsal' });
    await page.check('#compose-dry-run');
    await expect.poll(() => page.locator('#compose-command').textContent()).toMatch(/^pushctl dry-run --all --title 'Only a rehearsal' /);
    await page.fill('#compose-secret', 'demo-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toMatch(/^dry run accepted: emu-/);
    const dry = page.locator('article.entry.dry_run', { hasText: 'Only a rehearsal' });
    await dry.waitFor();
    expect(await dry.locator('.facts').textContent()).toContain('would reach20 of 20 simulated devices');
  });
});
