// The action's entry (action.yml → action/index.js, bundled by scripts/build-action.mjs).
import { runAction } from './run-action.js';

process.exitCode = await runAction({ env: process.env, cwd: process.env.GITHUB_WORKSPACE ?? process.cwd(), stdout: process.stdout, stderr: process.stderr });
