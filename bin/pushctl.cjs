#!/usr/bin/env node
// CommonJS on purpose: an ES module entry starts Node's ESM loader, about 8 ms that a CLI run never needs.
require('../dist/pushctl.cjs')
  .run(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
