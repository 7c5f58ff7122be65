#!/usr/bin/env node
// `npm run screenshot`: regenerates docs/inbox.png from a real run — `pushctl serve` with simulated devices,
// varied messages sent with the built CLI, the page opened in Debian's chromium through playwright-core.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'pushctl.cjs');
const BROWSER = process.env.CHROMIUM ?? '/usr/bin/chromium';
const dark = process.argv.includes('--dark');
const out = join(ROOT, 'docs', dark ? 'inbox-dark.png' : 'inbox.png');
const tmp = mkdtempSync(join(tmpdir(), 'pushctl-shot-'));
const env = { ...process.env, PUSHCTL_APP_SECRET: 'demo-secret', PUSHCTL_JOURNAL_DIR: join(tmp, 'runs'), NO_COLOR: '1' };

const serve = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--fleet', '5000', '--rate', '0'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
try {
  const url = await new Promise((resolve, reject) => {
    let text = '';
    serve.stdout.on('data', (d) => ((text += d), text.includes('\n') && resolve(text.trim())));
    serve.on('exit', (code) => reject(new Error(`pushctl serve exited ${code}`)));
  });
  const send = (...args) => {
    const r = spawnSync(process.execPath, [BIN, ...args, '--base-url', url, '--app-id', 'demo-app'], { env, encoding: 'utf8', cwd: tmp });
    if (![0, 3, 4].includes(r.status)) throw new Error(`pushctl ${args.join(' ')}: ${r.stderr}`);
  };
  writeFileSync(join(tmp, 'bad.json'), JSON.stringify({ type: 1, time_to_live: 3600, condition: { type: 0 }, notification: { title: 'Oops', small_icon_color: 'red' } }));
  send('send', '--all', '--title', 'Version 2.1 is out', '--desc', 'Faster sends and a new inbox', '--small-icon-color', '#1A73E8', '--open-url', 'https://example.com/releases/2.1');
  send('send', '--country', 'IN,GB', '--language', 'en', '--title', 'Weekend sale', '--desc', '20% off everything until Sunday', '--style', 'button', '--button-text', 'Shop now', '--icon', 'https://example.com/sale.png');
  send('send', '--client-id', 'device-000001,device-000002,stranger-9', '--type', 'data', '-d', 'action=sync', '-d', 'since=2026-11-22T10:00:00Z');
  send('dry-run', '--all', '--title', 'Maintenance tonight', '--desc', '02:00–03:00 UTC', '--ttl', '6h');
  send('send', '--no-validate', '-f', join(tmp, 'bad.json'));
  const browser = await chromium.launch({ executablePath: BROWSER, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1500 }, colorScheme: dark ? 'dark' : 'light' });
    await page.goto(`${url}/`);
    await page.locator('article.entry').nth(4).waitFor();
    await page.locator('#device-list li').first().click();
    await page.locator('#device-inbox li').first().waitFor();
    // The compose panel, open on a message being written: checked live, previewed, its command ready to copy.
    await page.click('#compose-toggle');
    await page.fill('#compose-fields [name=title]', 'Your order has shipped');
    await page.fill('#compose-fields [name=desc]', 'Track it on the way: it arrives Thursday');
    await page.fill('#compose-fields [name=smallIconColor]', '#188038');
    await page.selectOption('#compose-fields [name=onTap]', 'url');
    await page.fill('#compose-fields [name=openContent]', 'https://example.com/orders/1042');
    await page.fill('#compose-fields [name=ttl]', '2d');
    await page.locator('#compose-verdict .verdict-line', { hasText: 'valid' }).waitFor();
    await page.locator('#compose-audience', { hasText: 'would reach' }).waitFor();
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: out, fullPage: false });
    console.error(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  serve.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
