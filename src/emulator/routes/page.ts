// `GET /` and its files: the inbox page built into dist/web/ (no CDN, no external fonts). Read from disk on
// first use, so no other command ever pays for it. The page shows untrusted input, so its policy lets only
// its own script run (a file, not inline: no 'unsafe-inline'), and no other site may frame it.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

/** The one policy of every file of the page. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Request path → file in dist/web/ and its type. A fixed table: no path from a request reaches the disk. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'inbox.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'inbox.html', type: 'text/html; charset=utf-8' },
  '/inbox.js': { file: 'inbox.js', type: 'text/javascript; charset=utf-8' },
  '/inbox.css': { file: 'inbox.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
  '/favicon.ico': { file: 'favicon.svg', type: 'image/svg+xml' },
};

const NOT_BUILT = Buffer.from(
  '<!doctype html><title>pushctl inbox</title><p>The inbox page is not built: run <code>npm run build</code>. The API is at <a href="/v1/emulator/requests">/v1/emulator/requests</a>.</p>',
);

const cache = new Map<string, Buffer | undefined>();

/** dist/emulator.js finds dist/web/ beside it; the sources (tests) find the built one. */
function load(file: string): Buffer | undefined {
  if (cache.has(file)) return cache.get(file);
  let found: Buffer | undefined;
  for (const dir of ['./web/', '../../../dist/web/']) {
    try {
      found = readFileSync(new URL(`${dir}${file}`, import.meta.url));
      break;
    } catch {
      // Try the next place.
    }
  }
  cache.set(file, found);
  return found;
}

/** Whether `path` is one of the page's files (the server then calls {@link servePage}). */
export const isPagePath = (path: string): boolean => Object.hasOwn(FILES, path);

export function servePage(res: ServerResponse, path = '/'): void {
  const entry = FILES[path] ?? FILES['/']!;
  const body = load(entry.file) ?? (entry.file === 'inbox.html' ? NOT_BUILT : undefined);
  if (!body) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('the inbox page is not built: run npm run build\n');
    return;
  }
  res.writeHead(200, {
    'content-type': entry.type,
    'content-length': body.length,
    'content-security-policy': PAGE_CSP,
    // Old browsers that do not read frame-ancestors read this.
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // A rebuilt page is picked up at the next reload.
    'cache-control': 'no-cache',
  });
  res.end(body);
}
