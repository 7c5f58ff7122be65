// The CLI ships as "islands": one CommonJS file per command, plus the few heavy modules loaded only when
// needed (dist/*.cjs, see scripts/build.mjs). They are loaded here rather than by require() so that V8's
// code cache can be used: Node 20 has no compile cache of its own (module.enableCompileCache came in 22),
// and parsing and compiling the minified code is most of what a one-message send costs above `node -e 0`.
//
// A cache file (`<island>.cjs.v8`) holds the exact source it was made from, then V8's data. V8 itself
// checks only the source's length, so the bytes are compared here (one memcmp) before the data is offered;
// V8 then rejects data from another V8 version or other flags, and compiles as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/**
 * How every island file begins (scripts/build.mjs writes it): Node's CommonJS wrapper, plus the names the
 * build leaves free: the island loader, import.meta.url, and import() of a path known only at run time.
 * Wrapped on disk, not here: joining strings the size of an island would be garbage the first collection
 * has to copy.
 */
export const ISLAND_HEAD = '(function (exports, require, module, __filename, __dirname, __pushctl_island, __pushctl_meta_url, __pushctl_import) {';

/** The build sets this while it runs the CLI once per command, to write each island's cache. */
const TRAIN_ENV = 'PUSHCTL_BUILD_CODE_CACHE';
const HEADER_BYTES = 4;

const loaded = new Map<string, unknown>();
const compiled: { file: string; source: Buffer; script: Script }[] = [];

/** The module.exports of `dist/<name>.cjs`, evaluated once. */
export function loadIsland(name: string): unknown {
  if (loaded.has(name)) return loaded.get(name);
  const file = join(__dirname, `${name}.cjs`);
  const source = readFileSync(file);
  const code = source.toString('utf8');
  if (!code.startsWith(ISLAND_HEAD)) throw new Error(`${file} is not an island for this loader: run npm run build`);
  const script = new Script(code, {
    // A name that does not depend on where the package is: V8 keeps the one the cache was made under, so
    // the build directory's path would otherwise show in every user's stack traces.
    filename: `pushctl/dist/${name}.cjs`,
    cachedData: cacheFor(file, source),
  });
  if (process.env[TRAIN_ENV] === '1') {
    if (compiled.length === 0) process.once('exit', writeCaches);
    compiled.push({ file, source, script });
  }
  const module = { exports: {} as unknown };
  const body = script.runInThisContext() as IslandBody;
  body.call(module.exports, module.exports, require, module, file, dirname(file), loadIsland, pathToFileURL(file).href, importModule);
  loaded.set(name, module.exports);
  return module.exports;
}

type IslandBody = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
  island: typeof loadIsland,
  metaUrl: string,
  dynamicImport: typeof importModule,
) => void;

/**
 * import() for the islands: a config file written as JavaScript (pushctl.config.mjs) is loaded by cosmiconfig
 * with import(), which code compiled by vm.Script can only make through an experimental option that prints
 * a warning. Here, in a file Node loaded itself, it is Node's own import().
 */
function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}

/** V8's data for `file` when its cache file was made from exactly `source`. */
export function cacheFor(file: string, source: Buffer): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(`${file}.v8`);
  } catch {
    return undefined;
  }
  const length = data.length >= HEADER_BYTES ? data.readUInt32LE(0) : -1;
  if (length !== source.length || data.length < HEADER_BYTES + length) return undefined;
  if (!source.equals(data.subarray(HEADER_BYTES, HEADER_BYTES + length))) return undefined;
  return data.subarray(HEADER_BYTES + length);
}

/** After a training run: each island's cache then holds every function that run compiled, not just the top level. */
function writeCaches(): void {
  for (const { file, source, script } of compiled) writeFileSync(`${file}.v8`, cacheFileBytes(source, script.createCachedData()));
}

/** A cache file: the source's length, the source, then V8's data. */
export function cacheFileBytes(source: Buffer, data: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(source.length, 0);
  return Buffer.concat([header, source, data]);
}
