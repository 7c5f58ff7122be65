// The inbox page in a real browser: a real `pushctl serve` (the built CLI) on port 0 and Debian's chromium
// driven by playwright-core. One helper, so every browser test starts both the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { BIN, cleanEnv, runCli } from './run-cli.js';

export const BROWSER = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const browserFound = existsSync(BROWSER);
if (!browserFound) console.warn(`browser tests skipped: no chromium at ${BROWSER} (apt-get install chromium, or set CHROMIUM)`);

/** Flags for a quiet, sandbox-free chromium in a container: nothing phones home, nothing updates. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Inbox {
  dir: string;
  url: string;
  browser: Browser;
  /** Runs the built CLI against this emulator as `demo-app`. */
  send(...args: string[]): ReturnType<typeof runCli>;
  env(): Record<string, string | undefined>;
  stop(): Promise<void>;
}

/** A new tab on the inbox page, once its live stream is connected. */
export async function openInbox(inbox: Inbox, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await inbox.browser.newPage({ colorScheme });
  await page.goto(`${inbox.url}/`);
  await page.locator('#live.on').waitFor();
  return page;
}

/** Starts `pushctl serve --port 0 --rate 0 <serveArgs>` in a fresh directory (`prepare` writes files into it first) and a browser. */
export async function startInbox(serveArgs: (dir: string) => string[], prepare: (dir: string) => void = () => {}): Promise<Inbox> {
  const dir = mkdtempSync(join(tmpdir(), 'pushctl-inbox-'));
  prepare(dir);
  const env = () => cleanEnv({ HOME: dir, PUSHCTL_APP_SECRET: 'demo-secret' });
  const serve: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--rate', '0', ...serveArgs(dir)], { env: env() as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    serve.stdout!.setEncoding('utf8').on('data', (d: string) => ((text += d), text.includes('\n') && resolve(text.trim())));
    serve.on('exit', (code) => reject(new Error(`pushctl serve exited ${code}`)));
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: BROWSER, args: CHROMIUM_ARGS });
  return {
    dir,
    url,
    browser,
    env,
    send: (...args) => runCli([...args, '--base-url', url, '--app-id', 'demo-app'], { env: env(), cwd: dir }),
    stop: async () => {
      await browser.close();
      if (serve.exitCode === null) {
        const exited = new Promise((resolve) => serve.once('exit', resolve));
        serve.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The hooks of a file whose every test starts on a fresh tab with the compose panel open, against one
 * `pushctl serve --fleet 20` for the whole file: `use` hands the file each inbox and page as they are made.
 */
export function composeOnFreshPage(use: { inbox(inbox: Inbox): void; page(page: Page): void }): void {
  let inbox: Inbox | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    inbox = await startInbox(() => ['--fleet', '20']);
    use.inbox(inbox);
  }, 60_000);
  afterAll(async () => {
    await inbox?.stop();
  });
  beforeEach(async () => {
    await page?.close();
    page = await openInbox(inbox!);
    await page.click('#compose-toggle');
    await page.locator('#compose').waitFor();
    use.page(page);
  });
}
