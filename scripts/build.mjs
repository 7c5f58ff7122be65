// Bundles the CLI and the library into dist/ with esbuild, then emits type declarations.
// Code splitting keeps rarely used modules (emulator, cosmiconfig, ora) out of the start-up path:
// they are reached through dynamic import() and load only when a command needs them.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const result = await build({
  entryPoints: { main: 'src/main.ts', lib: 'src/lib.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: !process.argv.includes("--debug"),
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  // cosmiconfig can load TypeScript config files through the typescript package; pushctl does not offer
  // that, and bundling the compiler would add megabytes, so it stays an unresolved optional import.
  external: ['typescript'],
  define: { __PUSHCTL_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node built-ins; give ESM output one.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
});

if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.error(`built dist/ (${(bytes / 1024).toFixed(0)} KiB in ${Object.keys(result.metafile.outputs).length} files)`);
