// `GET /`: the inbox page, one self-contained HTML file built into dist/web/ (no CDN, no external fonts).
// Read from disk on first use, so no other command ever pays for it.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

let page: Buffer | undefined;

/** dist/emulator.js finds dist/web/inbox.html beside it; the sources (tests) find the built one. */
const CANDIDATES = ['./web/inbox.html', '../../../dist/web/inbox.html'];

function loadPage(): Buffer {
  for (const candidate of CANDIDATES) {
    try {
      return readFileSync(new URL(candidate, import.meta.url));
    } catch {
      // Try the next place.
    }
  }
  return Buffer.from('<!doctype html><title>pushctl inbox</title><p>The inbox page is not built: run <code>npm run build</code>. The API is at <a href="/v1/emulator/requests">/v1/emulator/requests</a>.</p>');
}

export function servePage(res: ServerResponse): void {
  page ??= loadPage();
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': page.length,
    // The page shows untrusted input: no script may run but its own.
    'content-security-policy': "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:",
  });
  res.end(page);
}
