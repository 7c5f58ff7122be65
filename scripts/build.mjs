// Bundles the CLI and the library into dist/ with esbuild, then emits type declarations.
//
// The output is a set of "islands": self-contained files, one per command, plus the few heavy modules that
// load only when needed (the emulator, cosmiconfig, ora, chalk). A dynamic import() of another island loads
// that island's file; everything else is bundled in. A command thus loads two files (main and its own; resend,
// whose code is send's, a third: HOSTED below), and the price is some code repeated across files on disk,
// which no single run loads twice.
//
// The CLI's islands are CommonJS (dist/*.cjs), plain files that bin/pushctl.cjs and each other load with
// require(): an ES module entry starts Node's ESM loader, about 8 ms on Node 20 that a CLI run never needs.
// The library's are ES modules (dist/*.js) for `import 'pushctl'`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OUT = 'dist';
const SHARED = {
  emulator: 'src/emulator/index.ts',
  'client-ids': 'src/input/client-id-feed.ts',
  'proxy-agents': 'src/client/proxy-agents.ts',
  // The tools of `pushctl mcp`, loaded on the first request for them: the server starts on the MCP SDK alone.
  'mcp/handlers': 'src/commands/mcp/handlers.ts',
  // zod, which most commands' files import (statically): one copy a run loads and compiles once, where a
  // send would otherwise evaluate one in its own file and another in each file it loads.
  'vendor/zod': 'pushctl:zod',
  // zod's JSON Schema generator (a third of zod's code), for the few commands that print a schema (schema,
  // mcp): apart from vendor/zod, so that validate and send do not compile it. zod keeps its registry and
  // config on globalThis, so this file's own copy of zod's helpers shares them with vendor/zod's.
  'vendor/zod-json-schema': 'pushctl:zod-json-schema',
  // The JSON parser that locates mistakes (jsonc-parser), one copy for the files that read JSON; not in
  // main.cjs, so `--help` and the commands that read no JSON (runs, schema, completion) do not load it.
  json: 'src/message/parse-json.ts',
  'vendor/chalk': 'chalk',
  'vendor/ora': 'ora',
  'vendor/cosmiconfig': 'cosmiconfig',
};
// The CLI's entry files, one output file each. Every command has a file of its own, so a run loads main.cjs
// and its command's file and nothing else it does not use; a new command gets a line here (the start-up
// path test fails for a command file without one).
const CLI_ISLANDS = {
  main: 'src/main.ts',
  'commands/validate/run': 'src/commands/validate/run.ts',
  'commands/send/run': 'src/commands/send/run.ts',
  'commands/dry-run/run': 'src/commands/dry-run/run.ts',
  'commands/resend/run': 'src/commands/resend/run.ts',
  'commands/serve/run': 'src/commands/serve/run.ts',
  'commands/init/run': 'src/commands/init/run.ts',
  'commands/config/run': 'src/commands/config/run.ts',
  'commands/check/run': 'src/commands/check/run.ts',
  'commands/runs/run': 'src/commands/runs/run.ts',
  'commands/runs/show/run': 'src/commands/runs/show/run.ts',
  'commands/schema/run': 'src/commands/schema/run.ts',
  'commands/completion/run': 'src/commands/completion/run.ts',
  // A command in a folder of its own (the shape of STYLE.md) is the island commands/<name>/run.
  'commands/mcp/run': 'src/commands/mcp/run.ts',
  ...SHARED,
};
/**
 * Modules the CLI's files share instead of bundling a copy (module → the island that holds it): the error
 * classes, in main.cjs, which every run has loaded first, so that one class, and a plain `instanceof`, holds
 * across files (main.cjs exports them); the JSON parser, in a file of its own, loaded by the files that
 * read JSON, so the package carries one copy and `--help` does not load it.
 */
const SHARED_MODULES = { 'src/errors.ts': 'main', 'src/message/parse-json.ts': 'json' };
/**
 * Commands whose code lives in another command's file (command island → the island that holds it). A resend
 * is a send of what a journal left: the two share nearly all their code (the client, the journal, the
 * delivery and its output), which two files carried twice, 50 kB of the package. The holder's file exports
 * the guest's `command` as `<name>Command` beside its own; the guest's file is a line that hands it on.
 */
const HOSTED = { 'commands/resend/run': 'commands/send/run' };

// The library is one file: nothing it exports loads another island (the emulator, the client and the
// validator are all in it), so ES module copies of the CLI's shared islands would be dead weight.
const LIB_ISLANDS = { lib: 'src/lib.ts' };

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** Island name by what a dynamic import() names: an absolute source path (extension-less) or a package. */
const islandKey = (importPath, resolveDir) => (importPath.startsWith('.') ? path.resolve(resolveDir, importPath).replace(/\.[jt]s$/, '') : importPath);

/**
 * A dynamic import of another island stays an import of that island's output file (`extension`), relative
 * to this island's file; any other import is bundled in.
 *
 * In the CommonJS files, esbuild makes such an import() a require() and, since our sources are ES modules
 * to Node, gives it Node's shape: `default` is the whole module.exports. An island is an ES module that
 * esbuild turned into CommonJS (marked __esModule), so its `default` is its own default export (ora's
 * spinner function): a one-line re-export, outside Node's rules, gives import() that shape.
 */
const islands = (self, set, extension) => ({
  name: 'islands',
  setup(b) {
    const names = new Map(Object.entries(set).map(([name, src]) => [src.startsWith('src/') ? path.resolve(src).replace(/\.ts$/, '') : src, name]));
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.namespace === 'island') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import') return undefined;
      const target = names.get(islandKey(args.path, args.resolveDir));
      if (target === undefined || target === self) return undefined;
      const relative = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, target));
      const file = `${relative.startsWith('.') ? '' : './'}${relative}${extension}`;
      return extension === '.cjs' ? { path: file, namespace: 'island' } : { path: file, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({ contents: `export * from ${JSON.stringify(args.path)}; export { default } from ${JSON.stringify(args.path)};`, loader: 'js' }));
  },
});

/**
 * Another island's file, required once by this one: the import is a module of one line that re-exports the
 * file, so every importer reads the one copy of its exports (as `<module>_exports.name`). Left external, each
 * module that imports it gets a require() of its own (errors.ts has some 30 importers in send's file), and
 * Node 20 resolves a file afresh at every require() from a file that did not load it itself: the file system
 * looked up again, and on a send enough path work that V8 compiled node:path's normalizeString with its
 * optimizing compiler, about 3% of the run's instructions.
 */
const requiredOnce = (b) => {
  b.onResolve({ filter: /.*/, namespace: 'required-once' }, (args) => ({ path: args.path, external: true }));
  b.onLoad({ filter: /.*/, namespace: 'required-once' }, (args) => ({ contents: `export * from ${JSON.stringify(args.path)};`, loader: 'js' }));
};

/**
 * The CLI's shared modules (SHARED_MODULES): main.cjs bundles those it holds and exports them beside `run`,
 * another island is the module itself; every other file requires the holder's file for them (once, see
 * requiredOnce), so each exists once in the running process.
 */
const sharedModules = (self) => ({
  name: 'shared-modules',
  setup(b) {
    requiredOnce(b);
    const holders = new Map(Object.entries(SHARED_MODULES).map(([src, island]) => [path.resolve(src).replace(/\.ts$/, ''), island]));
    const inMain = Object.keys(SHARED_MODULES).filter((src) => SHARED_MODULES[src] === 'main');
    b.onResolve({ filter: /^pushctl:main$/ }, () => ({ path: 'main', namespace: 'main-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'main-entry' }, () => ({
      contents: [CLI_ISLANDS.main, ...inMain].map((src) => `export * from ${JSON.stringify(`./${src}`)};`).join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
    b.onResolve({ filter: /^\./ }, (args) => {
      const holder = args.kind === 'import-statement' ? holders.get(islandKey(args.path, args.resolveDir)) : undefined;
      if (holder === undefined || holder === self) return undefined;
      const relative = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, `${holder}.cjs`));
      return { path: relative.startsWith('.') ? relative : `./${relative}`, namespace: 'required-once' };
    });
  },
});

/**
 * Packages that the CLI's files import statically and share (SHARED_PACKAGES: package → island): every
 * other file requires the island's file (once, see requiredOnce) instead of bundling a copy, so a run that
 * loads two of them loads the package once.
 */
const SHARED_PACKAGES = { 'zod/mini': 'vendor/zod', 'zod/v4/core': 'vendor/zod-json-schema' };

/**
 * The names of zod/mini that src/ uses as values (`z.string(`, `z.globalRegistry`, `import { config }`):
 * vendor/zod exports those alone, so it holds what pushctl uses (about a tenth of zod/mini with its
 * locales) and no file has to keep a list. Names zod/mini has no value for (`z.infer`) are types, and a
 * namespace read through (`z.core.$ZodIssue`) is one in pushctl's sources.
 */
async function zodNamesUsed() {
  const zod = await import('zod/mini');
  const used = new Set();
  for (const file of readdirSync('src', { recursive: true }).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join('src', file), 'utf8');
    for (const [, names] of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'zod\/mini'/g)) {
      for (const name of names.split(',')) if (!/^\s*type\s/.test(name) && name.trim()) used.add(name.trim().split(/\s+as\s+/)[0]);
    }
    for (const [, alias] of text.matchAll(/import\s+\*\s+as\s+(\w+)\s+from\s*'zod\/mini'/g)) {
      for (const [, name] of text.matchAll(new RegExp(`\\b${alias}\\.([A-Za-z_$][\\w$]*)(?![\\w$]*\\s*\\.)`, 'g'))) used.add(name);
    }
  }
  return [...used].filter((name) => name in zod).sort();
}
const zodEntry = {
  name: 'zod-entry',
  setup(b) {
    b.onResolve({ filter: /^pushctl:zod(-json-schema)?$/ }, (args) => ({ path: args.path, namespace: 'zod-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-entry' }, async (args) => ({
      contents: args.path === 'pushctl:zod' ? `export { ${(await zodNamesUsed()).join(', ')} } from 'zod/mini';` : "export { toJSONSchema } from 'zod/v4/core';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};
const sharedPackages = (self) => ({
  name: 'shared-packages',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(SHARED_PACKAGES).map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      const target = SHARED_PACKAGES[args.path];
      if (target === self || args.kind !== 'import-statement') return undefined;
      const relative = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, `${target}.cjs`));
      return { path: relative.startsWith('.') ? relative : `./${relative}`, namespace: 'required-once' };
    });
  },
});

// Bundled CommonJS dependencies (commander, cosmiconfig) call require() for Node built-ins, so ESM output
// needs one; files without CommonJS code are written without it, saving the createRequire call.
const REQUIRE_BANNER = "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);";
// CommonJS has no import.meta: the emulator finds its inbox page beside its own file. Written only into
// the files that use it.
const META_URL = '__pushctl_meta_url';
const META_URL_BANNER = `var ${META_URL}=require('node:url').pathToFileURL(__filename).href;`;

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

/**
 * The MCP SDK's Server checks elicitation answers (elicitInput) with ajv, which it loads at start-up whether
 * or not a server ever elicits; `pushctl mcp` never does. In its place a stand-in that says so if it is
 * ever used: about 130 kB of ajv and its formats (35 kB packed) the package does not carry.
 */
const noElicitationValidator = {
  name: 'no-elicitation-validator',
  setup(b) {
    b.onResolve({ filter: /validation[\\/]ajv-provider\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}@modelcontextprotocol${path.sep}sdk${path.sep}`) ? { path: 'ajv-provider', namespace: 'no-elicitation-validator' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-elicitation-validator' }, () => ({
      contents: "export class AjvJsonSchemaValidator { getValidator() { throw new Error('pushctl mcp asks its client nothing (no elicitation), so it validates no answer'); } }",
      loader: 'js',
    }));
  },
};

/**
 * ora draws one spinner, `dots` (`line` on Windows), and names no other: cli-spinners' table of some 90 is
 * 27 kB the package would carry for nothing. Its stand-in is the same table cut to those two, read from the
 * installed package at build time, so an update of cli-spinners still reaches the bundle.
 */
const usedSpinners = {
  name: 'used-spinners',
  setup(b) {
    b.onResolve({ filter: /^cli-spinners$/ }, () => ({ path: 'cli-spinners', namespace: 'used-spinners' }));
    b.onLoad({ filter: /.*/, namespace: 'used-spinners' }, () => {
      const all = JSON.parse(readFileSync(new URL('../node_modules/cli-spinners/spinners.json', import.meta.url), 'utf8'));
      return { contents: `export default ${JSON.stringify({ dots: all.dots, line: all.line })};`, loader: 'js' };
    });
  },
};

/**
 * HOSTED's two ends: the holder's entry re-exports each guest's `command` beside its own exports, and the
 * guest's entry is the holder's file, required when the guest runs (so `pushctl resend` loads send's file).
 */
const hosted = (self) => ({
  name: 'hosted',
  setup(b) {
    const guests = Object.entries(HOSTED).filter(([, holder]) => holder === self);
    b.onResolve({ filter: /^pushctl:hosted$/ }, () => ({ path: self, namespace: 'hosted' }));
    b.onResolve({ filter: /^pushctl:holder:/ }, (args) => ({ path: args.path.slice('pushctl:holder:'.length), external: true }));
    b.onLoad({ filter: /.*/, namespace: 'hosted' }, () => {
      const holder = HOSTED[self];
      if (holder !== undefined) {
        const file = path.relative(path.dirname(path.join(OUT, self)), path.join(OUT, `${holder}.cjs`));
        const name = path.basename(path.dirname(path.join(OUT, self)));
        return { contents: `export { ${name}Command as command } from ${JSON.stringify(`pushctl:holder:${file.startsWith('.') ? file : `./${file}`}`)};`, loader: 'js' };
      }
      const exports = guests.map(([guest]) => `export { command as ${path.basename(path.dirname(guest))}Command } from ${JSON.stringify(`./${CLI_ISLANDS[guest]}`)};`);
      return { contents: [`export * from ${JSON.stringify(`./${CLI_ISLANDS[self]}`)};`, ...exports].join('\n'), resolveDir: process.cwd(), loader: 'js' };
    });
  },
});

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
    build({ ...common, entryPoints: { [name]: entry }, format: 'esm', plugins: [islands(name, LIB_ISLANDS, '.js'), lazyChildProcess], banner: { js: REQUIRE_BANNER } }),
  ),
  ...Object.entries(CLI_ISLANDS).map(([name, entry]) =>
    build({
      ...common,
      entryPoints: { [name]: name === 'main' ? 'pushctl:main' : name in HOSTED || Object.values(HOSTED).includes(name) ? 'pushctl:hosted' : entry },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      plugins: [sharedModules(name), sharedPackages(name), zodEntry, islands(name, CLI_ISLANDS, '.cjs'), lazyChildProcess, noElicitationValidator, usedSpinners, hosted(name)],
      define: { ...common.define, 'import.meta.url': META_URL },
      // import() becomes require() (Node's ESM loader stays asleep), except in cosmiconfig, whose import()
      // of a config file's path (pushctl.config.mjs) must be Node's own: require() cannot load an ES
      // module on Node 20.
      ...(name === 'vendor/cosmiconfig' ? {} : { supported: { 'dynamic-import': false } }),
    }),
  ),
]);
// PUSHCTL_META=<file>: esbuild's metafiles, one per output file, to see what each file holds and why.
if (process.env.PUSHCTL_META) writeFileSync(process.env.PUSHCTL_META, JSON.stringify(results.map((r) => r.metafile)));
for (const file of results.flatMap((r) => r.outputFiles)) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  if (file.path.endsWith('.cjs')) writeFileSync(file.path, file.text.includes(META_URL) ? file.text.replace(/^("use strict";)?/, (head) => head + META_URL_BANNER) : file.text);
  else {
    const body = file.text.slice(REQUIRE_BANNER.length);
    writeFileSync(file.path, /\brequire\b/.test(body) ? file.text : body.replace(/^\n/, ''));
  }
}

// The emulator's inbox page (dist/web/).
await import('./build-inbox.mjs');

if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const { expandMessageTypes } = await import('./expand-message-types.mjs');
  expandMessageTypes('dist/types/message/types.d.ts');
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
