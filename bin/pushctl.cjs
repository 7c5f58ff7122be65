#!/usr/bin/env node
// CommonJS on purpose: an ES module entry starts Node's ESM loader, about 8 ms that a CLI run never needs.
// Node 22.1+ keeps compiled code on disk between runs; Node 20 has no such cache, and loading node:module
// there only to find that out would cost time, so the version decides.
if (Number(process.versions.node.split('.')[0]) >= 22) require('node:module').enableCompileCache?.();
require('../dist/main.cjs')
  .run(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
