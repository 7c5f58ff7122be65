// A config file saved by an editor that adds a UTF-8 byte-order mark (Notepad) is UTF-8 and read as such;
// one saved as UTF-16 or UTF-32 (PowerShell's `>`) is named for its encoding, never "invalid JSON at line 1,
// column 1" or a position past its end (docs/behaviour.md#settings). Exit 6, as for any config file.
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/errors.js';
import { loadConfigFile } from '../../../src/settings/load.js';
import { rejectionOf } from '../../helpers/cli-error.js';
import { useSandbox } from './helpers.js';

const box = useSandbox();
const load = () => loadConfigFile({ cwd: box.project, env: box.env, platform: 'linux' });
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('config files in other encodings', () => {
  it.each(['.pushctlrc.json', '.pushctlrc', '.pushctlrc.yaml', 'package.json'])('%s with a UTF-8 byte-order mark is read', async (name) => {
    const config = name === 'package.json' ? { name: 'x', pushctl: { appId: 'bom-app' } } : { appId: 'bom-app' };
    await box.write(`home/project/${name}`, `\uFEFF${JSON.stringify(config)}`);
    expect((await load())?.config).toEqual({ appId: 'bom-app' });
  });

  it.each(['.pushctlrc.json', '.pushctlrc', '.pushctlrc.yaml'])('%s saved as UTF-16 is named for its encoding (exit 6)', async (name) => {
    const file = await box.write(`home/project/${name}`, utf16le('{"appId": "wide-app"}'));
    const error = await rejectionOf(load());
    expect(error.exitCode).toBe(ExitCode.config);
    expect(error.message).toBe(`cannot read config file ${file}: it is UTF-16 LE, not UTF-8 (it starts with the byte-order mark FF FE)`);
    expect(error.hint).toBe('save it as UTF-8 (e.g. iconv -f UTF-16LE -t UTF-8, or your editor\'s "Save with encoding"), or run pushctl init --force to rewrite it');
  });
});
