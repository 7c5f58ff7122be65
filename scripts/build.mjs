// Bundles the CLI and the library into dist/ with esbuild, then emits type declarations.
//
// The output is a set of "islands": self-contained files, one per command, plus the library and the few
// heavy modules that load only when needed (the emulator, cosmiconfig, ora, chalk). A dynamic import()
// of another island stays a dynamic import of its file; everything else is bundled in. Node 20's ESM
// loader costs about a millisecond per module file, so a command that loads two files (main.js and its
// own) starts measurably faster than one spread over a dozen shared chunks. The price is some code
// repeated across files on disk, which no single run loads twice.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OUT = 'dist';
const ISLANDS = {
  main: 'src/main.ts',
  lib: 'src/lib.ts',
  'commands/validate': 'src/commands/validate.ts',
  'commands/send': 'src/commands/send.ts',
  'commands/serve': 'src/commands/serve.ts',
  'commands/init': 'src/commands/init.ts',
  'commands/config': 'src/commands/config.ts',
  'commands/schema': 'src/commands/schema.ts',
  'commands/completion': 'src/commands/completion.ts',
  'commands/runs': 'src/commands/runs.ts',
  emulator: 'src/emulator/index.ts',
  'client-ids': 'src/client/read-client-ids.ts',
  'proxy-agents': 'src/client/proxy-agents.ts',
  'vendor/chalk': 'chalk',
  'vendor/ora': 'ora',
  'vendor/cosmiconfig': 'cosmiconfig',
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** Island name by what a dynamic import() names: an absolute source path (extension-less) or a package. */
const islandOf = new Map(Object.entries(ISLANDS).map(([name, src]) => [src.startsWith('src/') ? path.resolve(src).replace(/\.ts$/, '') : src, name]));

/** Keeps dynamic imports of other islands as imports of their output files, relative to this island's file. */
const islands = (self) => ({
  name: 'islands',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const key = args.path.startsWith('.') ? path.resolve(args.resolveDir, args.path).replace(/\.[jt]s$/, '') : args.path;
      const target = islandOf.get(key);
      if (target === undefined || target === self) return undefined;
      const relative = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, target));
      return { path: `${relative.startsWith('.') ? '' : './'}${relative}.js`, external: true };
    });
  },
});

// Bundled CommonJS dependencies (commander, cosmiconfig) call require() for Node built-ins, so ESM output
// needs one; files without CommonJS code are written without it, saving the createRequire call.
const REQUIRE_BANNER = "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);";

/**
 * commander requires node:child_process at load time for stand-alone executable subcommands, which pushctl
 * does not use; loading it costs about a millisecond on every start. Give commander a stand-in that loads
 * the real module only if it is ever touched.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

const results = await Promise.all(
  Object.entries(ISLANDS).map(([name, entry]) =>
    build({
      entryPoints: { [name]: entry },
      outdir: OUT,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minify: !process.argv.includes('--debug'),
      legalComments: 'none',
      metafile: true,
      write: false,
      logLevel: 'warning',
      plugins: [islands(name), lazyChildProcess],
      // cosmiconfig can load TypeScript config files through the typescript package; pushctl does not offer
      // that, and bundling the compiler would add megabytes, so it stays an unresolved optional import.
      external: ['typescript'],
      define: { __PUSHCTL_VERSION__: JSON.stringify(pkg.version) },
      banner: { js: REQUIRE_BANNER },
    }),
  ),
);
for (const file of results.flatMap((r) => r.outputFiles)) {
  const body = file.text.slice(REQUIRE_BANNER.length);
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, /\brequire\b/.test(body) ? file.text : body.replace(/^\n/, ''));
}

// The emulator's inbox page: one self-contained HTML file (its script and styles inline, nothing fetched from
// elsewhere), read from disk by `pushctl serve` only.
{
  const web = await build({ entryPoints: ['src/emulator/web/inbox.ts'], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, write: false, legalComments: 'none', logLevel: 'warning' });
  const html = readFileSync('src/emulator/web/inbox.html', 'utf8')
    .replace('/*STYLE*/', () => readFileSync('src/emulator/web/inbox.css', 'utf8'))
    .replace('/*SCRIPT*/', () => web.outputFiles[0].text.replace(/<\/script/gi, '<\\/script'));
  mkdirSync(path.join(OUT, 'web'), { recursive: true });
  writeFileSync(path.join(OUT, 'web', 'inbox.html'), html);
}

if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
// The message file's JSON Schema ships beside the bundle, generated by the CLI just built, so a message
// file can point "$schema" at node_modules/pushctl/dist/message.schema.json.
execFileSync(process.execPath, ['bin/pushctl.js', 'schema', '--output', 'dist/message.schema.json'], { stdio: ['ignore', 'ignore', 'inherit'] });
// And the schema of every command's --json output, for scripts that check what they parse.
execFileSync(process.execPath, ['bin/pushctl.js', 'schema', '--envelope', '--output', 'dist/envelope.schema.json'], { stdio: ['ignore', 'ignore', 'inherit'] });
const outputs = results.flatMap((r) => Object.values(r.metafile.outputs));
const bytes = outputs.reduce((n, o) => n + o.bytes, 0);
console.error(`built dist/ (${(bytes / 1024).toFixed(0)} KiB in ${outputs.length} files)`);
// The GitHub Action's committed bundle, rebuilt with everything else so a stale one shows in `git status`.
await import('./build-action.mjs');
