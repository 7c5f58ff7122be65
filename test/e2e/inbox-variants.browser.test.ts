// The inbox page and variants by language (docs/behaviour.md#variants), in chromium against a real `pushctl
// serve --devices <csv>`: the built CLI sends a message with fr and pt variants to the same CSV; each entry
// shows its language and its target, and the devices panel shows which variant each device got.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserFound, startInbox, type Inbox, openInbox } from '../helpers/inbox-browser.js';

let inbox: Inbox;
let page: Page;

const DEVICES = [
  ['phone-en', 'en'],
  ['phone-fr', 'fr'],
  ['phone-frca', 'fr-CA'],
  ['phone-ptbr', 'pt-BR'],
  ['phone-sw', 'sw'],
];

describe.skipIf(!browserFound)('the inbox page shows each message\'s language (chromium)', () => {
  beforeAll(async () => {
    inbox = await startInbox(
      (dir) => ['--devices', join(dir, 'devices.csv')],
      (dir) => {
        writeFileSync(join(dir, 'devices.csv'), `client_id,country,language,brand,model,os_version,app_version\n${DEVICES.map(([id, language]) => `${id},KE,${language},TECNO,Spark,33,1.0`).join('\n')}\n`);
        const variants = { fr: { notification: { title: 'Nouvelle version' } }, pt: { notification: { title: 'Nova versão' } } };
        writeFileSync(join(dir, 'message.json'), JSON.stringify({ type: 1, time_to_live: 3600, notification: { title: 'New release' }, variants }));
      },
    );
    page = await openInbox(inbox);
    const sent = await inbox.send('send', '-f', 'message.json', '--client-ids-file', 'devices.csv');
    expect(sent.code, sent.stderr).toBe(0);
    const targeted = await inbox.send('send', '-f', 'message.json', '--language', 'fr,sw');
    expect(targeted.code, targeted.stderr).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await inbox?.stop();
  });

  /** The card of the newest entry whose phone preview shows `title`, by its facts. */
  const factsOf = async (title: string, nth = 0) => {
    const entry = page.locator('article.entry', { hasText: title }).nth(nth);
    await entry.waitFor();
    const names = await entry.locator('.facts dt').allTextContents();
    const values = await entry.locator('.facts dd').allTextContents();
    return { facts: Object.fromEntries(names.map((n, i) => [n, values[i]])), badge: await entry.locator('.meta .language').textContent() };
  };

  it('shows the language and the target of each entry: the listed devices\' languages, or the targeting\'s', async () => {
    const host = new URL(inbox.url).host;
    // Entries are newest first: the targeted sends came after the client-ID ones.
    const byIds = await factsOf('Nouvelle version', 1);
    expect(byIds.facts.language).toBe('fr, fr-CA');
    expect(byIds.badge).toBe('fr, fr-CA');
    expect(byIds.facts.target).toBe(`app demo-app at ${host}`);
    expect((await factsOf('Nova versão')).facts.language).toBe('pt-BR');
    expect((await factsOf('New release', 1)).facts.language).toBe('en, sw');
    const targeted = await factsOf('Nouvelle version', 0);
    expect(targeted.facts.language).toBe('fr');
    expect((await factsOf('New release', 0)).facts.language).toBe('sw');
  });

  it('lists for each device the variant it got last, and its inbox with each message\'s language', async () => {
    await page.reload();
    await page.locator('#devices:not([hidden]) #device-list li').first().waitFor();
    const lastOf = async (id: string) => page.locator('#device-list li', { hasText: id }).locator('.device-last').textContent();
    // The newest message each got: the targeted sends for fr (which reaches fr-CA too) and sw, the client-ID send for the others.
    expect(await lastOf('phone-frca')).toBe('last: Nouvelle version (fr)');
    expect(await lastOf('phone-ptbr')).toBe('last: Nova versão (pt-BR)');
    expect(await lastOf('phone-en')).toBe('last: New release (en, sw)');
    expect(await lastOf('phone-sw')).toBe('last: New release (sw)');
    await page.locator('#device-list li').filter({ has: page.locator('code.client-id', { hasText: /^phone-fr$/ }) }).click();
    await page.locator('#device-inbox ol li').first().waitFor();
    expect(await page.locator('#device-inbox ol li').allTextContents()).toEqual(['Nouvelle versionfr', 'Nouvelle versionfr, fr-CA']);
  });
});
