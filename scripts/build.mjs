// Bundles the CLI and the library into dist/ with esbuild, then emits type declarations.
//
// The output is a set of "islands": self-contained files, one per command, plus the few heavy modules that
// load only when needed (the emulator, cosmiconfig, ora, chalk). A dynamic import() of another island loads
// that island's file; everything else is bundled in. A command thus loads two files (main and its own), and
// the price is some code repeated across files on disk, which no single run loads twice.
//
// The CLI's islands are CommonJS (dist/*.cjs), loaded by src/islands/load-island.ts with V8's code cache,
// which the build writes by running the CLI (scripts/train-code-cache.mjs). The library's are ES modules
// (dist/*.js) for `import 'pushctl'`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const OUT = 'dist';
const SHARED = {
  emulator: 'src/emulator/index.ts',
  'client-ids': 'src/input/read-client-ids.ts',
  'proxy-agents': 'src/client/proxy-agents.ts',
  'vendor/chalk': 'chalk',
  'vendor/ora': 'ora',
  'vendor/cosmiconfig': 'cosmiconfig',
};
const CLI_ISLANDS = {
  main: 'src/main.ts',
  'commands/validate': 'src/commands/validate.ts',
  'commands/send': 'src/commands/send.ts',
  'commands/serve': 'src/commands/serve.ts',
  'commands/init': 'src/commands/init.ts',
  'commands/config': 'src/commands/config.ts',
  'commands/check': 'src/commands/check.ts',
  'commands/schema': 'src/commands/schema.ts',
  'commands/completion': 'src/commands/completion.ts',
  'commands/runs': 'src/commands/runs.ts',
  ...SHARED,
};
const LIB_ISLANDS = { lib: 'src/lib.ts', ...SHARED };

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** Island name by what a dynamic import() names: an absolute source path (extension-less) or a package. */
const islandKey = (importPath, resolveDir) => (importPath.startsWith('.') ? path.resolve(resolveDir, importPath).replace(/\.[jt]s$/, '') : importPath);
const islandNames = (set) => new Map(Object.entries(set).map(([name, src]) => [src.startsWith('src/') ? path.resolve(src).replace(/\.ts$/, '') : src, name]));
const BUILTINS = new Set(builtinModules);

/**
 * ES module islands: a dynamic import of another island stays a dynamic import of its file, relative to
 * this island's file.
 */
const esmIslands = (self, set) => ({
  name: 'esm-islands',
  setup(b) {
    const names = islandNames(set);
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = names.get(islandKey(args.path, args.resolveDir));
      if (target === undefined || target === self) return undefined;
      const relative = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, target));
      return { path: `${relative.startsWith('.') ? '' : './'}${relative}.js`, external: true };
    });
  },
});

/**
 * CommonJS islands: the loader's `__pushctl_island(name)` stands in for a dynamic import of another island,
 * through a small module that gives it the shape import() would (its default export is an ES module's
 * default, or a CommonJS module's exports). A dynamic import of a Node built-in becomes require(), so the
 * CLI never starts Node's ESM loader; only an import() of a runtime path (an .mjs config file) remains.
 */
const cjsIslands = (self, set) => ({
  name: 'cjs-islands',
  setup(b) {
    const names = islandNames(set);
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      if (BUILTINS.has(args.path.replace(/^node:/, ''))) return { path: args.path, namespace: 'builtin' };
      const target = names.get(islandKey(args.path, args.resolveDir));
      if (target === undefined || target === self) return undefined;
      return { path: target, namespace: 'island' };
    });
    b.onResolve({ filter: /^island-exports:/ }, (args) => ({ path: args.path.slice('island-exports:'.length), namespace: 'island-exports' }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    b.onLoad({ filter: /.*/, namespace: 'island-exports' }, (args) => ({ contents: `module.exports = __pushctl_island(${JSON.stringify(args.path)});`, loader: 'js' }));
    b.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({
      contents: [
        `const m = __pushctl_island(${JSON.stringify(args.path)});`,
        'export default m.__esModule ? m.default : m;',
        `export * from ${JSON.stringify(`island-exports:${args.path}`)};`,
      ].join('\n'),
      loader: 'js',
    }));
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

const ISLAND_HEAD = '(function (exports, require, module, __filename, __dirname, __pushctl_island, __pushctl_meta_url, __pushctl_import) {';

/**
 * cosmiconfig loads a JavaScript config file with import() of a path known only at run time. Code compiled
 * by vm.Script cannot make that import without an experimental option (and its warning), so in the CLI's
 * islands it calls the loader's own import() instead.
 */
const COSMICONFIG_LOADERS = `${path.sep}cosmiconfig${path.sep}dist${path.sep}loaders.js`;
const islandImport = {
  name: 'island-import',
  setup(b) {
    b.onLoad({ filter: /cosmiconfig[\\/]dist[\\/]loaders\.js$/ }, (args) => {
      if (!args.path.endsWith(COSMICONFIG_LOADERS)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const contents = text.replace(/\bimport\(/g, '__pushctl_import(');
      if (contents === text) throw new Error(`${args.path}: no import() to route through the island loader; check the cosmiconfig upgrade`);
      return { contents, loader: 'js' };
    });
  },
};

const common = {
  outdir: OUT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: !process.argv.includes('--debug'),
  legalComments: 'none',
  metafile: true,
  write: false,
  logLevel: 'warning',
  // cosmiconfig can load TypeScript config files through the typescript package; pushctl does not offer
  // that, and bundling the compiler would add megabytes, so it stays an unresolved optional import.
  external: ['typescript'],
  define: { __PUSHCTL_VERSION__: JSON.stringify(pkg.version) },
};
const results = await Promise.all([
  ...Object.entries(LIB_ISLANDS).map(([name, entry]) =>
    build({ ...common, entryPoints: { [name]: entry }, format: 'esm', plugins: [esmIslands(name, LIB_ISLANDS), lazyChildProcess], banner: { js: REQUIRE_BANNER } }),
  ),
  ...Object.entries(CLI_ISLANDS).map(([name, entry]) =>
    build({
      ...common,
      entryPoints: { [name]: entry },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      plugins: [cjsIslands(name, CLI_ISLANDS), lazyChildProcess, islandImport],
      // The loader passes the island's file URL in; CommonJS has no import.meta.
      define: { ...common.define, 'import.meta.url': '__pushctl_meta_url' },
      // Wrapped as the loader compiles it (ISLAND_HEAD in src/islands/load-island.ts, which checks it).
      banner: { js: ISLAND_HEAD },
      footer: { js: '})' },
    }),
  ),
  // The loader itself, which bin/pushctl.cjs requires.
  build({ ...common, entryPoints: { pushctl: 'src/islands/cli-entry.ts' }, format: 'cjs', outExtension: { '.js': '.cjs' } }),
]);
for (const file of results.flatMap((r) => r.outputFiles)) {
  // An island compiled by vm.Script cannot make an import() of its own (see islandImport): fail here, not at run time.
  if (file.path.endsWith('.cjs') && !file.path.endsWith(`${path.sep}pushctl.cjs`) && /(?<![\w$])import\(/.test(file.text)) {
    throw new Error(`${file.path}: an import() the island loader cannot make; route it through __pushctl_import (scripts/build.mjs)`);
  }
  mkdirSync(path.dirname(file.path), { recursive: true });
  if (!file.path.endsWith('.js')) writeFileSync(file.path, file.text);
  else {
    const body = file.text.slice(REQUIRE_BANNER.length);
    writeFileSync(file.path, /\brequire\b/.test(body) ? file.text : body.replace(/^\n/, ''));
  }
}

// The emulator's inbox page (dist/web/).
await import('./build-inbox.mjs');

if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
// The message file's JSON Schema ships beside the bundle, generated by the CLI just built, so a message
// file can point "$schema" at node_modules/pushctl/dist/message.schema.json.
execFileSync(process.execPath, ['bin/pushctl.cjs', 'schema', '--output', 'dist/message.schema.json'], { stdio: ['ignore', 'ignore', 'inherit'] });
// And the schema of every command's --json output, for scripts that check what they parse.
execFileSync(process.execPath, ['bin/pushctl.cjs', 'schema', '--envelope', '--output', 'dist/envelope.schema.json'], { stdio: ['ignore', 'ignore', 'inherit'] });
const outputs = results.flatMap((r) => Object.values(r.metafile.outputs));
const bytes = outputs.reduce((n, o) => n + o.bytes, 0);
console.error(`built dist/ (${(bytes / 1024).toFixed(0)} KiB in ${outputs.length} files)`);
// The GitHub Action's committed bundle, rebuilt with everything else so a stale one shows in `git status`.
await import('./build-action.mjs');
await import('./train-code-cache.mjs');
