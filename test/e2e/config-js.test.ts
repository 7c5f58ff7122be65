// Config files written as JavaScript, read by the built CLI. cosmiconfig loads them with import(), which
// the CommonJS CLI must leave as Node's own (require() cannot load an ES module on Node 20): and quietly,
// since a warning on stderr is noise in every CI log.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pushctl-jsconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const config = () => runCli(['config', '--json'], { env: cleanEnv({ HOME: dir, XDG_CONFIG_HOME: join(dir, '.config') }), cwd: dir });

describe('a JavaScript config file', () => {
  it.each([
    ['pushctl.config.mjs', "export default { appId: 'from-js', baseUrl: 'http://127.0.0.1:9' };\n"],
    ['pushctl.config.cjs', "module.exports = { appId: 'from-js', baseUrl: 'http://127.0.0.1:9' };\n"],
    ['.pushctlrc.js', "module.exports = { appId: 'from-js', baseUrl: 'http://127.0.0.1:9' };\n"],
  ])('%s is read, and nothing is printed on stderr', async (name, text) => {
    writeFileSync(join(dir, name), text);
    const r = await config();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('from-js');
    expect(r.stdout).toContain(join(dir, name));
  });
});
