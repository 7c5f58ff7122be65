// The emulator's inbox page into dist/web/: the HTML, its stylesheet, its script (the page's TypeScript and
// the message module it checks with, bundled by esbuild) and its icon, each a file the emulator serves, so the
// page's CSP can allow scripts from itself only. Nothing is fetched from elsewhere.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const SRC = 'src/emulator/web';
const OUT = path.join('dist', 'web');

mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: [path.join(SRC, 'inbox.ts')],
  outfile: path.join(OUT, 'inbox.js'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  minify: !process.argv.includes('--debug'),
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['inbox.html', 'inbox.css', 'favicon.svg']) copyFileSync(path.join(SRC, file), path.join(OUT, file));
