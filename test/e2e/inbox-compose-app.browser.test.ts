// The compose panel on an emulator started with its own apps (`pushctl serve --app my-app:my-secret`, the
// README's first example), in chromium: it addresses an app this emulator has, not the demo app it lacks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, openInbox, startInbox, type Inbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let page: Page;

describe.skipIf(!browserFound)('compose on an emulator with its own apps (chromium)', () => {
  beforeAll(async () => {
    // The apps file's come first, then --app's: a disabled app, then my-app, then another.
    inbox = await startInbox(
      (dir) => ['--apps', join(dir, 'apps.json'), '--app', 'later-app:later-secret'],
      (dir) => writeFileSync(join(dir, 'apps.json'), JSON.stringify([{ id: 'off-app', secret: 's', disabled: true }, { id: 'my-app', secret: 'my-secret' }])),
    );
    page = await openInbox(inbox);
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
  });

  it("starts with this emulator's first enabled app, and sends to it with its secret", async () => {
    await page.click('#compose-toggle');
    await expect.poll(() => page.locator('#compose-app').inputValue()).toBe('my-app');
    await page.fill('#compose-fields [name=title]', 'To my app');
    await expect.poll(() => page.locator('#compose-command').textContent()).toContain('--app-id my-app');
    await page.fill('#compose-secret', 'my-secret');
    await page.click('#compose-send');
    await expect.poll(() => page.locator('#compose-status').textContent()).toMatch(/^accepted: emu-/);
  });
});
