// The action's entry (action.yml → action/index.js, bundled by scripts/build-action.mjs).
import { stopOnSignals } from '../stop-on-signals.js';
import { runAction } from './run-action.js';

// A cancelled job gets SIGINT, then SIGTERM 7.5 s later: as the CLI, the first stops new requests and waits
// for those in flight, the second cuts them; either way the journal's end, the report, the outputs and the
// job summary are written before the step ends (docs/behaviour.md#trust).
const signals = stopOnSignals((line) => process.stderr.write(line), (code) => process.exit(code));
process.exitCode = await runAction({ env: process.env, cwd: process.env.GITHUB_WORKSPACE ?? process.cwd(), stdout: process.stdout, stderr: process.stderr, interrupt: signals.interrupt, stopNow: signals.stopNow });
signals.dispose();
