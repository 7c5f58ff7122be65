// Cross-site requests (issue 31): a web page the developer visits, on another origin, tries to push to the
// emulator and to clear it, in chromium, the way a real page would (no-cors `text/plain`, no preflight). The
// emulator refuses both; the inbox page itself, on the emulator's own origin, still sends and clears.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFound, openInbox, startInbox, type Inbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let site: Server;
let siteUrl: string;

/** Everything the emulator has logged: the push route logs every request it answers. */
async function requestsLogged(): Promise<number> {
  return ((await (await fetch(`${inbox.url}/v1/emulator/requests`)).json()) as { total: number }).total;
}

describe.skipIf(!browserFound)('a page on another origin cannot change the emulator (chromium)', () => {
  beforeAll(async () => {
    inbox = await startInbox(() => ['--fleet', '5']);
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>some site</title>'));
    site.listen(0, '127.0.0.1');
    await new Promise((resolve) => site.once('listening', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
    site?.close();
  });

  it.each([
    ['a push', '/v1/message/push/demo-app', JSON.stringify({ type: 1, condition: { type: 0 }, notification: { title: 'from a web page' } })],
    ['a clear', '/v1/emulator/messages', ''],
  ])('%s from another origin is refused and leaves nothing behind', async (_what, path, body) => {
    await inbox.send('send', '--all', '--title', 'Kept');
    const before = await requestsLogged();
    const page = await inbox.browser.newPage();
    await page.goto(siteUrl);
    // An opaque answer resolves the fetch: the request has been answered when it returns.
    await page.evaluate(
      ([url, text]) => fetch(url!, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: text! }).then(() => undefined),
      [`${inbox.url}${path}`, body],
    );
    await page.close();
    expect(await requestsLogged()).toBe(before);
    const kept = (await (await fetch(`${inbox.url}/v1/emulator/messages`)).json()) as { messages: unknown[] };
    expect(kept.messages.length).toBeGreaterThan(0);
  });

  it('the inbox page on its own origin still sends and clears', async () => {
    const page = await openInbox(inbox);
    await page.click('#compose-toggle');
    await page.fill('#compose-fields [name=title]', 'Sent from the page');
    await page.fill('#compose-secret', 'demo-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toMatch(/^accepted: emu-/);
    await page.click('#clear');
    await page.click('#clear-confirm');
    await expect.poll(() => page.locator('article.entry').count()).toBe(0);
    await page.close();
  });
});
