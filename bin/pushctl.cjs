#!/usr/bin/env node
// CommonJS on purpose: an ES module entry starts Node's ESM loader, about 8 ms that a CLI run never needs.
// Node 22.1+ keeps compiled code on disk between runs; Node 20 has no such cache, and loading node:module
// there only to find that out would cost time, so the version decides.
if (Number(process.versions.node.split('.')[0]) >= 22) require('node:module').enableCompileCache?.();
const cli = require('../dist/main.cjs');
cli.run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // run() resolves when the command is over: its journal closed, its locks released, its report written.
  // What the event loop would still do is V8's housekeeping (a garbage collection it scheduled) and the
  // teardown, milliseconds of every run (docs/design.md#bundle), so the process ends now, unless output
  // is still queued in one of Node's own streams, which the loop then writes out first.
  if (cli.stdioFlushed()) process.exit(code);
});
